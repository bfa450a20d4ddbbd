import { ContainerModule } from 'inversify';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';
import { createPgAssistantSettingsStore } from '../../adapters/node/pg-assistant-settings-store.js';
import { createPgJobSchedule } from '../../adapters/node/pg-job-schedule.js';
import { createPgOrgExport } from '../../adapters/node/pg-org-export.js';
import { createPgQuestionLogStore } from '../../adapters/node/pg-question-log-store.js';
import type { OrgExportPort } from '../../core/ports/org-export.port.js';
import { assistantRoutes } from '../routes/assistant.routes.js';
import { insightsRoutes } from '../routes/insights.routes.js';
import { orgDataRoutes } from '../routes/org-data.routes.js';
import { visitorRoutes } from '../routes/visitor.routes.js';
import { AssistantSettingsService } from '../services/assistant-settings-service.js';
import { InsightsService } from '../services/insights-service.js';
import type { KeyVerifier } from '../services/key-verifier.js';
import { QuestionLogService } from '../services/question-log-service.js';
import { RetentionJob } from '../services/retention-job.js';
import { VisitorInsightsService } from '../services/visitor-insights-service.js';
import { TOKENS } from '../tokens.js';

/**
 * The owner's loop (issue 13): assistant settings, the question log (written by the chat route and the SDK's beacon),
 * feedback, insights, the retention purge and the organisation's data export.
 */
export const insightsModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.AssistantSettingsStore).toResolvedValue((db: KnexDatabase) => createPgAssistantSettingsStore(db.knex), [TOKENS.Database]);
  bind(TOKENS.QuestionLogStore).toResolvedValue((db: KnexDatabase) => createPgQuestionLogStore(db.knex), [TOKENS.Database]);
  bind(TOKENS.JobSchedule).toResolvedValue((db: KnexDatabase) => createPgJobSchedule(db.knex), [TOKENS.Database]);
  bind(TOKENS.OrgExport).toResolvedValue((db: KnexDatabase) => createPgOrgExport(db.knex), [TOKENS.Database]);
  bind(TOKENS.AssistantSettingsService).to(AssistantSettingsService);
  bind(TOKENS.QuestionLogService).to(QuestionLogService);
  bind(TOKENS.VisitorInsightsService).to(VisitorInsightsService);
  bind(TOKENS.InsightsService).to(InsightsService);
  bind(TOKENS.RetentionJob).to(RetentionJob);
  bind(TOKENS.Routes).toResolvedValue((settings: AssistantSettingsService) => assistantRoutes(settings), [TOKENS.AssistantSettingsService]);
  bind(TOKENS.Routes).toResolvedValue((insights: InsightsService) => insightsRoutes(insights), [TOKENS.InsightsService]);
  bind(TOKENS.Routes).toResolvedValue((visitors: VisitorInsightsService, keys: KeyVerifier) => visitorRoutes({ visitors, keys }), [TOKENS.VisitorInsightsService, TOKENS.KeyVerifier]);
  // createApp resolves every route list once at start: the retention schedule starts with the app it serves.
  bind(TOKENS.Routes).toResolvedValue(
    (exporter: OrgExportPort, job: RetentionJob) => {
      job.start();
      return orgDataRoutes(exporter);
    },
    [TOKENS.OrgExport, TOKENS.RetentionJob],
  );
  // After chat's drain (FEATURE_MODULES order): the last answers are reported before the queue is written.
  bind(TOKENS.ShutdownHooks).toResolvedValue((log: QuestionLogService, job: RetentionJob) => async () => {
    await job.stop();
    await log.stop();
  }, [TOKENS.QuestionLogService, TOKENS.RetentionJob]);
});
