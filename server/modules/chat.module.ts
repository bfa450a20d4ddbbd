import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { createAltchaChallenge } from '../../adapters/node/altcha-challenge.js';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';
import { createNoneChallenge } from '../../adapters/node/none-challenge.js';
import { createOpenAiCompatibleInference } from '../../adapters/node/openai-compatible-inference.js';
import { createPgChatLimiter } from '../../adapters/node/pg-chat-limiter.js';
import { createPgReplayStore } from '../../adapters/node/pg-replay-store.js';
import { createTurnstileChallenge } from '../../adapters/node/turnstile-challenge.js';
import type { BotChallengePort } from '../../core/ports/bot-challenge.port.js';
import type { RateLimiterPort } from '../../core/ports/rate-limiter.port.js';
import type { ReplayStorePort } from '../../core/ports/replay-store.port.js';
import { isPageQuestion } from '../../core/grounding/index.js';
import { createExtractiveInference } from '../../core/retrieval/index.js';
import type { ServerConfig } from '../config.js';
import { browserRoutes } from '../routes/browser.routes.js';
import { chatRoutes } from '../routes/chat.routes.js';
import { ChatService } from '../services/chat-service.js';
import type { AssistantSettingsService } from '../services/assistant-settings-service.js';
import type { QuestionLogService } from '../services/question-log-service.js';
import { createSessionTokens, type SessionTokens } from '../services/session-tokens.js';
import type { PreviewGrants } from '../services/preview-grants.js';
import { TOKENS, type Clock, type PlatformSecrets } from '../tokens.js';

/** The provider chosen by KIT_BOT_CHALLENGE, with its secrets and the shared replay store. */
export function createBotChallenge(config: ServerConfig, secrets: PlatformSecrets, replayStore: ReplayStorePort, clock: Clock): BotChallengePort {
  const bot = config.botChallenge;
  const now = () => clock().getTime();
  if (bot.provider === 'turnstile') {
    return createTurnstileChallenge({
      siteKey: bot.turnstileSiteKey!,
      secretKey: bot.turnstileSecret!,
      replayStore,
      ...(bot.turnstileVerifyUrl ? { verifyUrl: bot.turnstileVerifyUrl } : {}),
      now,
    });
  }
  // The configured NODE_ENV, not the adapter's own read: the production bundle inlines process.env.NODE_ENV.
  if (bot.provider === 'none') return createNoneChallenge({ nodeEnv: config.nodeEnv ?? undefined });
  return createAltchaChallenge({ hmacKey: secrets.altchaHmacKey, replayStore, maxNumber: bot.altchaMaxNumber, ttlSeconds: bot.altchaTtlSeconds, now });
}

/** GET /config, POST /session and POST /chat: bot challenge, sessions, inference, limits; drains streams on shutdown. */
export const chatModule = new ContainerModule(({ bind }) => {
  // The claim's expiry is the challenge's, read on the platform clock: the store must compare it on the same clock.
  bind(TOKENS.ReplayStore).toResolvedValue(
    (db: KnexDatabase, logger: Logger, clock: Clock) =>
      createPgReplayStore(db.knex, { now: () => clock().getTime(), onSweepError: (err) => logger.warn({ err: { message: (err as Error).message } }, 'challenge claim sweep failed') }),
    [TOKENS.Database, TOKENS.Logger, TOKENS.Clock],
  );
  bind(TOKENS.BotChallenge).toResolvedValue(createBotChallenge, [TOKENS.Config, TOKENS.PlatformSecrets, TOKENS.ReplayStore, TOKENS.Clock]);
  bind(TOKENS.SessionTokens).toResolvedValue((secrets: PlatformSecrets) => createSessionTokens(secrets.sessionSecret), [TOKENS.PlatformSecrets]);
  bind(TOKENS.Inference).toResolvedValue(
    (config: ServerConfig) =>
      config.inference
        ? createOpenAiCompatibleInference({ baseUrl: config.inference.url, model: config.inference.model, ...(config.inference.apiKey ? { apiKey: config.inference.apiKey } : {}) })
        : createExtractiveInference({ answer: { pageQuestion: isPageQuestion } }),
    [TOKENS.Config],
  );
  bind(TOKENS.ChatLimiter).toResolvedValue(
    (db: KnexDatabase, logger: Logger) => createPgChatLimiter(db.knex, { onSweepError: (err) => logger.warn({ err: { message: (err as Error).message } }, 'rate-limit sweep failed') }),
    [TOKENS.Database, TOKENS.Logger],
  );
  bind(TOKENS.ChatService).to(ChatService);
  bind(TOKENS.Routes).toResolvedValue(
    (config: ServerConfig, clock: Clock, challenge: BotChallengePort, sessions: SessionTokens, limiter: RateLimiterPort, assistant: AssistantSettingsService, grants: PreviewGrants) =>
      browserRoutes({ config, clock, challenge, sessions, limiter, assistant, previewDraft: (token, keyId, origin) => grants.siteDraft(token, keyId, origin) }),
    [TOKENS.Config, TOKENS.Clock, TOKENS.BotChallenge, TOKENS.SessionTokens, TOKENS.RateLimiter, TOKENS.AssistantSettingsService, TOKENS.PreviewGrants],
  );
  bind(TOKENS.Routes).toResolvedValue(
    (config: ServerConfig, chat: ChatService, questionLog: QuestionLogService, assistant: AssistantSettingsService, logger: Logger) => chatRoutes({ config, chat, questionLog, assistant, logger }),
    [TOKENS.Config, TOKENS.ChatService, TOKENS.QuestionLogService, TOKENS.AssistantSettingsService, TOKENS.Logger],
  );
  // Registered before the other modules' hooks (see FEATURE_MODULES): streams finish, and meter, before anything closes.
  bind(TOKENS.ShutdownHooks).toResolvedValue((chat: ChatService, config: ServerConfig) => () => chat.drain(config.shutdownGraceMs), [TOKENS.ChatService, TOKENS.Config]);
});
