import type { Knex } from 'knex';
import type { JobSchedulePort } from '../../core/ports/job-schedule.port.js';

/** The `scheduled_jobs` table: a claim is one guarded UPDATE, so two replicas never both win a run. */
export function createPgJobSchedule(knex: Knex): JobSchedulePort {
  return {
    async claim(name, now, intervalMs) {
      await knex('scheduled_jobs').insert({ name, next_run_at: now }).onConflict('name').ignore();
      const rows = await knex('scheduled_jobs')
        .where({ name })
        .where('next_run_at', '<=', now)
        .update({ next_run_at: new Date(now.getTime() + intervalMs), last_started_at: now })
        .returning('name');
      return rows.length > 0;
    },
    async finish(name, now, result) {
      await knex('scheduled_jobs').where({ name }).update({ last_finished_at: now, last_result: result.slice(0, 500) });
    },
    async nextRun(name) {
      const row = await knex('scheduled_jobs').where({ name }).first<{ next_run_at: Date } | undefined>('next_run_at');
      return row ? new Date(row.next_run_at) : null;
    },
  };
}
