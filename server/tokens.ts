import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { KnexDatabase } from '../adapters/node/knex-database.js';
import type { SettingsStore } from '../adapters/node/pg-settings-store.js';
import type { BillingStore } from '../adapters/node/pg-billing-store.js';
import type { ChatLimiter } from '../adapters/node/pg-chat-limiter.js';
import type { BillingPort } from '../core/ports/billing.port.js';
import type { BotChallengePort } from '../core/ports/bot-challenge.port.js';
import type { InferencePort } from '../core/ports/inference.port.js';
import type { ReplayStorePort } from '../core/ports/replay-store.port.js';
import type { Redactor } from '../core/redaction/index.js';
import type { AccessTokenPort } from '../core/ports/access-token.port.js';
import type { AccountStorePort } from '../core/ports/account-store.port.js';
import type { KeyStorePort } from '../core/ports/key-store.port.js';
import type { PasswordHasherPort } from '../core/ports/password-hasher.port.js';
import type { RateLimiterPort } from '../core/ports/rate-limiter.port.js';
import type { UsageStorePort } from '../core/ports/usage-store.port.js';
import type { ServerConfig } from './config.js';
import type { Authenticator } from './auth/authenticator.js';
import type { Route } from './http/route.js';
import type { AccountService } from './services/account-service.js';
import type { KeyService } from './services/key-service.js';
import type { KeyVerifier } from './services/key-verifier.js';
import type { LastUsedTracker } from './services/last-used-tracker.js';
import type { OrgService } from './services/org-service.js';
import type { UsageService } from './services/usage-service.js';
import type { BillingService } from './services/billing-service.js';
import type { ChatService } from './services/chat-service.js';
import type { DemoSite } from './demo/demo-site.js';
import type { SessionTokens } from './services/session-tokens.js';
import type { AssistantSettingsStorePort } from '../core/ports/assistant-settings.port.js';
import type { JobSchedulePort } from '../core/ports/job-schedule.port.js';
import type { OrgExportPort } from '../core/ports/org-export.port.js';
import type { OrgDeletionPort } from '../core/ports/org-deletion.port.js';
import type { OrgDeletionService } from './services/org-deletion-service.js';
import type { QuestionLogPort } from '../core/ports/question-log.port.js';
import type { AssistantSettingsService } from './services/assistant-settings-service.js';
import type { InsightsService } from './services/insights-service.js';
import type { QuestionLogService } from './services/question-log-service.js';
import type { RetentionJob } from './services/retention-job.js';
import type { VisitorInsightsService } from './services/visitor-insights-service.js';
import type { BrowserSessionStorePort } from '../core/ports/browser-session-store.port.js';
import type { MailerPort } from '../core/ports/mailer.port.js';
import type { PasswordResetStorePort } from '../core/ports/password-reset-store.port.js';
import type { BrowserSessionService } from './services/browser-session-service.js';
import type { ConsoleAccountService } from './services/console-account-service.js';
import type { ConsoleSite } from './console/console-site.js';
import type { PreviewGrants } from './services/preview-grants.js';

/** Server-wide secrets kept in the database (generated on first start), shared by every replica. */
export interface PlatformSecrets {
  /** Signs ALTCHA challenges. */
  readonly altchaHmacKey: string;
  /** Signs browser sessions. */
  readonly sessionSecret: Uint8Array;
}

/** The current time; injected so tests can move it. */
export type Clock = () => Date;

/** Something to run when the server stops (flush buffers), in registration order. */
export type ShutdownHook = () => Promise<void>;

/** What each token resolves to. */
export interface Services {
  Config: ServerConfig;
  Logger: Logger;
  Clock: Clock;
  Database: KnexDatabase;
  SettingsStore: SettingsStore;
  RateLimiter: RateLimiterPort;
  PasswordHasher: PasswordHasherPort;
  AccessTokens: AccessTokenPort;
  AccountStore: AccountStorePort;
  KeyStore: KeyStorePort;
  UsageStore: UsageStorePort;
  AccountService: AccountService;
  OrgService: OrgService;
  KeyService: KeyService;
  KeyVerifier: KeyVerifier;
  LastUsedTracker: LastUsedTracker;
  UsageService: UsageService;
  Authenticator: Authenticator;
  PlatformSecrets: PlatformSecrets;
  ReplayStore: ReplayStorePort;
  BotChallenge: BotChallengePort;
  SessionTokens: SessionTokens;
  Inference: InferencePort;
  /** Server-side masking of /chat sources (KIT_REDACT_SOURCES); null when off. */
  SourceRedactor: Redactor | null;
  ChatLimiter: ChatLimiter;
  ChatService: ChatService;
  /** null when Stripe is not configured. */
  Billing: BillingPort | null;
  BillingStore: BillingStore;
  BillingService: BillingService;
  DemoSite: DemoSite;
  // Issue 13: settings, question log, feedback, insights, retention, export.
  AssistantSettingsStore: AssistantSettingsStorePort;
  QuestionLogStore: QuestionLogPort;
  JobSchedule: JobSchedulePort;
  OrgExport: OrgExportPort;
  OrgDeletion: OrgDeletionPort;
  OrgDeletionService: OrgDeletionService;
  AssistantSettingsService: AssistantSettingsService;
  QuestionLogService: QuestionLogService;
  VisitorInsightsService: VisitorInsightsService;
  InsightsService: InsightsService;
  RetentionJob: RetentionJob;
  /** The console (issue 14): browser sessions, password resets, email, the app's files. */
  BrowserSessionStore: BrowserSessionStorePort;
  BrowserSessions: BrowserSessionService;
  PasswordResetStore: PasswordResetStorePort;
  Mailer: MailerPort;
  ConsoleAccounts: ConsoleAccountService;
  ConsoleSite: ConsoleSite;
  PreviewGrants: PreviewGrants;
  /** Multi-bound: each area binds one array of routes; createApp mounts them all. */
  Routes: readonly Route[];
  /** Multi-bound. */
  ShutdownHooks: ShutdownHook;
}

/** The symbol tokens of the server's container, one per entry of Services. */
export const TOKENS: { readonly [K in keyof Services]: symbol } = Object.freeze({
  Config: Symbol.for('kit.Config'),
  Logger: Symbol.for('kit.Logger'),
  Clock: Symbol.for('kit.Clock'),
  Database: Symbol.for('kit.Database'),
  SettingsStore: Symbol.for('kit.SettingsStore'),
  RateLimiter: Symbol.for('kit.RateLimiter'),
  PasswordHasher: Symbol.for('kit.PasswordHasher'),
  AccessTokens: Symbol.for('kit.AccessTokens'),
  AccountStore: Symbol.for('kit.AccountStore'),
  KeyStore: Symbol.for('kit.KeyStore'),
  UsageStore: Symbol.for('kit.UsageStore'),
  AccountService: Symbol.for('kit.AccountService'),
  OrgService: Symbol.for('kit.OrgService'),
  KeyService: Symbol.for('kit.KeyService'),
  KeyVerifier: Symbol.for('kit.KeyVerifier'),
  LastUsedTracker: Symbol.for('kit.LastUsedTracker'),
  UsageService: Symbol.for('kit.UsageService'),
  Authenticator: Symbol.for('kit.Authenticator'),
  PlatformSecrets: Symbol.for('kit.PlatformSecrets'),
  ReplayStore: Symbol.for('kit.ReplayStore'),
  BotChallenge: Symbol.for('kit.BotChallenge'),
  SessionTokens: Symbol.for('kit.SessionTokens'),
  Inference: Symbol.for('kit.Inference'),
  SourceRedactor: Symbol.for('kit.SourceRedactor'),
  ChatLimiter: Symbol.for('kit.ChatLimiter'),
  ChatService: Symbol.for('kit.ChatService'),
  Billing: Symbol.for('kit.Billing'),
  BillingStore: Symbol.for('kit.BillingStore'),
  BillingService: Symbol.for('kit.BillingService'),
  DemoSite: Symbol.for('kit.DemoSite'),
  AssistantSettingsStore: Symbol.for('kit.AssistantSettingsStore'),
  QuestionLogStore: Symbol.for('kit.QuestionLogStore'),
  JobSchedule: Symbol.for('kit.JobSchedule'),
  OrgExport: Symbol.for('kit.OrgExport'),
  OrgDeletion: Symbol.for('kit.OrgDeletion'),
  OrgDeletionService: Symbol.for('kit.OrgDeletionService'),
  AssistantSettingsService: Symbol.for('kit.AssistantSettingsService'),
  QuestionLogService: Symbol.for('kit.QuestionLogService'),
  VisitorInsightsService: Symbol.for('kit.VisitorInsightsService'),
  InsightsService: Symbol.for('kit.InsightsService'),
  RetentionJob: Symbol.for('kit.RetentionJob'),
  BrowserSessionStore: Symbol.for('kit.BrowserSessionStore'),
  BrowserSessions: Symbol.for('kit.BrowserSessions'),
  PasswordResetStore: Symbol.for('kit.PasswordResetStore'),
  Mailer: Symbol.for('kit.Mailer'),
  ConsoleAccounts: Symbol.for('kit.ConsoleAccounts'),
  ConsoleSite: Symbol.for('kit.ConsoleSite'),
  PreviewGrants: Symbol.for('kit.PreviewGrants'),
  Routes: Symbol.for('kit.Routes'),
  ShutdownHooks: Symbol.for('kit.ShutdownHooks'),
});

/** Typed `container.get` by token name. */
export function resolve<K extends keyof Services>(container: Container, name: K): Services[K] {
  return container.get<Services[K]>(TOKENS[name]);
}

/** Every binding of a multi-bound token. */
export function resolveAll<K extends keyof Services>(container: Container, name: K): Services[K][] {
  return container.getAll<Services[K]>(TOKENS[name]);
}
