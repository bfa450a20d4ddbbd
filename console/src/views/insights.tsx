import { useState } from 'preact/hooks';
import { api, call } from '../api/client.js';
import { ErrorAlert, Loading, PageTitle, Select, TableWrap } from '../components/ui.js';
import { useResource } from '../components/use-resource.js';
import { may, useSession } from '../session.js';
import { DailyChart } from './daily-chart.js';
import { LoggingSettings } from './logging-settings.js';
import { QuestionGroups, QuestionLog } from './question-log.js';

const number = new Intl.NumberFormat('en');
const DAY = 86_400_000;

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Usage over time: chats and tokens per day, and their split by mode, key and model. */
export function Insights(_: { path?: string }) {
  const { session } = useSession();
  const [days, setDays] = useState('30');
  const [split, setSplit] = useState<'mode' | 'key' | 'model'>('mode');
  const to = new Date(Math.ceil(Date.now() / DAY) * DAY);
  const from = new Date(to.getTime() - Number(days) * DAY);
  const daily = useResource(() => call(api.GET('/usage', { params: { query: { from: from.toISOString(), to: to.toISOString(), group_by: 'day' } } })), [session.organization.id, days]);
  const questions = useResource(() => call(api.GET('/insights/daily', { params: { query: { from: from.toISOString(), to: to.toISOString() } } })), [session.organization.id, days]);
  const byGroup = useResource(() => call(api.GET('/usage', { params: { query: { from: from.toISOString(), to: to.toISOString(), group_by: split } } })), [session.organization.id, days, split]);
  const series = (() => {
    const rows = new Map((daily.data?.breakdown ?? []).map((r) => [r.day ?? '', r]));
    const x: number[] = [];
    const chats: number[] = [];
    const tokens: number[] = [];
    for (let t = from.getTime(); t < to.getTime(); t += DAY) {
      const row = rows.get(isoDay(new Date(t)));
      x.push(t / 1000);
      chats.push(row?.requests ?? 0);
      tokens.push(row ? row.input_tokens + row.output_tokens : 0);
    }
    return { x, chats, tokens };
  })();
  const questionSeries = (() => {
    const perDay = new Map<string, Record<string, number>>();
    for (const row of questions.data?.questions ?? []) {
      const day = perDay.get(row.day) ?? {};
      day[row.mode] = (day[row.mode] ?? 0) + row.questions;
      if (row.outcome === 'refused' || row.outcome === 'not_found') day[row.outcome] = (day[row.outcome] ?? 0) + row.questions;
      perDay.set(row.day, day);
    }
    const votes = new Map((questions.data?.feedback ?? []).map((f) => [f.day, f]));
    const pick = (name: string) => series.x.map((t) => perDay.get(isoDay(new Date(t * 1000)))?.[name] ?? 0);
    return {
      modes: [
        { label: 'Answered by the service (API)', values: pick('remote') },
        { label: 'Local model (device)', values: pick('local') },
        { label: 'Extractive (device)', values: pick('extractive') },
        { label: 'Not found on the page', values: pick('not_found') },
        { label: 'Refused (off-topic)', values: pick('refused') },
      ],
      votes: [
        { label: 'Helpful', values: series.x.map((t) => votes.get(isoDay(new Date(t * 1000)))?.up ?? 0) },
        { label: 'Not helpful', values: series.x.map((t) => votes.get(isoDay(new Date(t * 1000)))?.down ?? 0) },
      ],
    };
  })();
  const range = { from: from.toISOString(), to: to.toISOString(), orgId: session.organization.id };
  return (
    <>
      <PageTitle title="Insights" lede="What visitors ask, and what it costs." />
      <div class="toolbar">
        <Select
          label="Period"
          value={days}
          onValue={setDays}
          options={[
            ['7', 'Last 7 days'],
            ['30', 'Last 30 days'],
            ['90', 'Last 90 days'],
          ]}
        />
      </div>
      <h2>Chats and tokens per day</h2>
      <ErrorAlert error={daily.error} title="Usage could not be loaded." />
      {daily.loading && !daily.data ? <Loading /> : null}
      {daily.data ? (
        <>
          <p>
            {number.format(daily.data.total.requests)} chats, {number.format(daily.data.total.input_tokens + daily.data.total.output_tokens)} tokens,{' '}
            {number.format(daily.data.total.refusals)} refused, from {isoDay(from)} to {isoDay(new Date(to.getTime() - DAY))} (UTC).
          </p>
          <DailyChart
            label="Chats per day"
            x={series.x}
            series={[{ label: 'Chats', values: series.chats }]}
          />
          <DailyChart label="Tokens per day" x={series.x} series={[{ label: 'Tokens', values: series.tokens }]} />
        </>
      ) : null}
      <h2>Questions per day by mode</h2>
      <p class="hint">Every question visitors asked, wherever it was answered (on their device too), also with logging off. Answers from Kit's service count as the service's whatever its engine (its built-in extractive one without a model server); "device" is the visitor's browser.</p>
      <ErrorAlert error={questions.error} />
      {questions.data ? (
        <>
          <DailyChart label="Questions per day by mode" x={series.x} series={questionSeries.modes} />
          <DailyChart label="Feedback per day" x={series.x} series={questionSeries.votes} />
        </>
      ) : null}
      <h2>Top questions</h2>
      <QuestionGroups kind="top" {...range} />
      <h2>Coverage gaps</h2>
      <p class="hint">Questions the assistant refused as off-topic, answered with "not found on the page", or visitors voted down: the content your site is missing.</p>
      <QuestionGroups kind="gaps" {...range} />
      <h2>Questions</h2>
      <QuestionLog {...range} />
      <h2>Question logging</h2>
      <section class="card">
        <LoggingSettings canEdit={may.manageLogging(session.role)} />
      </section>
      <h2>Split by {split}</h2>
      <div class="toolbar">
        <Select
          label="Split by"
          value={split}
          onValue={setSplit}
          options={[
            ['mode', 'Mode (remote, local)'],
            ['key', 'Key'],
            ['model', 'Model'],
          ]}
        />
      </div>
      <ErrorAlert error={byGroup.error} />
      {byGroup.data ? (
        byGroup.data.breakdown.length === 0 ? (
          <p class="muted">No chats in this period.</p>
        ) : (
          <TableWrap label={`Usage by ${split}`} columns={[split, { label: 'Chats', num: true }, { label: 'Input tokens', num: true }, { label: 'Output tokens', num: true }, { label: 'Refused', num: true }]}>
            {byGroup.data.breakdown.map((r, i) => (
              <tr key={i}>
                <td class="wrap-anywhere">{(split === 'key' ? r.key_id : split === 'model' ? r.model : r.mode) ?? '(deleted key)'}</td>
                <td class="num">{number.format(r.requests)}</td>
                <td class="num">{number.format(r.input_tokens)}</td>
                <td class="num">{number.format(r.output_tokens)}</td>
                <td class="num">{number.format(r.refusals)}</td>
              </tr>
            ))}
          </TableWrap>
        )
      ) : null}
    </>
  );
}
