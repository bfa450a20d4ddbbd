import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api/client.js';
import { ErrorAlert, Field, Loading, Select, TableWrap, When } from '../components/ui.js';
import { useResource } from '../components/use-resource.js';

type Question = Schemas['LoggedQuestion'];
type Filters = { q: string; outcome: '' | Question['outcome']; mode: '' | 'local' | 'remote' | 'extractive'; rating: '' | 'up' | 'down' };

/** How each outcome reads to an owner (the filter, the list's badges). */
export const OUTCOME_LABELS: Record<Question['outcome'], string> = {
  answered: 'Answered',
  not_found: 'Not found on the page',
  refused: 'Refused (off-topic)',
  error: 'Error',
};
const OUTCOME_BADGES: Record<Question['outcome'], string> = { answered: 'ok', not_found: 'warn', refused: 'warn', error: 'danger' };

/** The question list with filters, more on demand, and the same filters as a CSV download. */
export function QuestionLog({ from, to, orgId }: { from: string; to: string; orgId: string }) {
  const [filters, setFilters] = useState<Filters>({ q: '', outcome: '', mode: '', rating: '' });
  const [applied, setApplied] = useState<Filters>(filters);
  const [more, setMore] = useState<Question[]>([]);
  const [moreHasMore, setMoreHasMore] = useState(false);
  const [moreError, setMoreError] = useState<unknown>(null);
  const query = {
    from,
    to,
    limit: 25,
    ...(applied.q.trim() ? { q: applied.q.trim() } : {}),
    ...(applied.outcome ? { outcome: applied.outcome } : {}),
    ...(applied.mode ? { mode: applied.mode } : {}),
    ...(applied.rating ? { rating: applied.rating } : {}),
  };
  const first = useResource(async () => {
    setMore([]);
    return call(api.GET('/questions', { params: { query } }));
  }, [orgId, from, to, applied]);
  const rows = [...(first.data?.data ?? []), ...more];
  const hasMore = more.length > 0 ? moreHasMore : first.data?.has_more;
  const exportUrl = `/v1/questions/export?${new URLSearchParams(Object.entries(query).filter(([k]) => k !== 'limit').map(([k, v]) => [k, String(v)])).toString()}`;
  return (
    <>
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(filters);
        }}
      >
        <Field label="Words" type="search" value={filters.q} onValue={(q) => setFilters({ ...filters, q })} />
        <Select
          label="Outcome"
          value={filters.outcome}
          onValue={(outcome) => setFilters({ ...filters, outcome })}
          options={[['', 'Any'], ...(Object.entries(OUTCOME_LABELS) as Array<[Question['outcome'], string]>)]}
        />
        <Select
          label="Mode"
          value={filters.mode}
          onValue={(mode) => setFilters({ ...filters, mode })}
          options={[
            ['', 'Any'],
            ['remote', 'The service (API)'],
            ['local', 'Local model (device)'],
            ['extractive', 'Extractive (device)'],
          ]}
        />
        <Select
          label="Feedback"
          value={filters.rating}
          onValue={(rating) => setFilters({ ...filters, rating })}
          options={[
            ['', 'Any'],
            ['up', 'Thumbs up'],
            ['down', 'Thumbs down'],
          ]}
        />
        <button type="submit" class="primary">
          Filter
        </button>
        <a class="button" href={exportUrl} download="kit-questions.csv">
          Export CSV
        </a>
      </form>
      <ErrorAlert error={first.error} title="Questions could not be loaded." />
      {first.loading && !first.data ? <Loading /> : null}
      {first.data && rows.length === 0 ? <p class="muted">No logged questions match. With question logging off, only counts are kept.</p> : null}
      {rows.length > 0 ? (
        <TableWrap label="Questions" columns={['Question', 'Outcome', 'Feedback', 'Page', 'Asked']}>
          {rows.map((q) => (
            <tr key={q.id}>
              <td class="wrap-anywhere">
                {q.question}
                {q.answer ? <div class="muted">{q.answer.length > 240 ? `${q.answer.slice(0, 240)}…` : q.answer}</div> : null}
              </td>
              <td>
                <span class={`badge ${OUTCOME_BADGES[q.outcome]}`}>{OUTCOME_LABELS[q.outcome]}</span>
                <div class="muted">{q.mode}</div>
              </td>
              <td class="wrap-anywhere">
                {q.feedback ? (q.feedback.rating === 'up' ? '👍 helpful' : '👎 not helpful') : <span class="muted">none</span>}
                {q.feedback?.comment ? <div class="muted">“{q.feedback.comment}”</div> : null}
              </td>
              <td class="wrap-anywhere">{q.page_url ?? <span class="muted">unknown</span>}</td>
              <td>
                <When iso={q.created_at} />
              </td>
            </tr>
          ))}
        </TableWrap>
      ) : null}
      <ErrorAlert error={moreError} />
      {hasMore ? (
        <div class="actions">
          <button
            type="button"
            onClick={async () => {
              setMoreError(null);
              try {
                const page = await call(api.GET('/questions', { params: { query: { ...query, starting_after: rows[rows.length - 1]!.id } } }));
                setMoreHasMore(page.has_more);
                setMore([...more, ...page.data]);
              } catch (err) {
                setMoreError(err);
              }
            }}
          >
            Show more questions
          </button>
        </div>
      ) : null}
    </>
  );
}

/** Most asked questions, or the gaps (refused, not found on the page, or voted down): what to add to the site. */
export function QuestionGroups({ kind, from, to, orgId }: { kind: 'top' | 'gaps'; from: string; to: string; orgId: string }) {
  const groups = useResource(
    () =>
      kind === 'top'
        ? call(api.GET('/insights/top-questions', { params: { query: { from, to, limit: 10 } } }))
        : call(api.GET('/insights/coverage-gaps', { params: { query: { from, to, limit: 10 } } })),
    [kind, from, to, orgId],
  );
  const rows = (groups.data?.data ?? []) as (Schemas['TopQuestion'] & { pages?: Schemas['CoverageGap']['pages'] })[];
  return (
    <>
      <ErrorAlert error={groups.error} />
      {groups.loading && !groups.data ? <Loading /> : null}
      {groups.data && rows.length === 0 ? <p class="muted">{kind === 'top' ? 'No questions logged in this period. Questions are kept only while question logging (below) keeps them.' : 'No gaps among the logged questions: none was refused, unanswered by the page or voted down. Questions are kept only while question logging (below) keeps them.'}</p> : null}
      {rows.length > 0 ? (
        <TableWrap label={kind === 'top' ? 'Top questions' : 'Coverage gaps'} columns={['Question', { label: 'Asked', num: true }, { label: 'Not found on the page', num: true }, { label: 'Refused', num: true }, { label: '👍 / 👎', num: true }, kind === 'gaps' && 'Asked on']}>
          {rows.map((g, i) => (
            <tr key={i}>
              <td class="wrap-anywhere">{g.question}</td>
              <td class="num">{g.count}</td>
              <td class="num">{g.not_found}</td>
              <td class="num">{g.refused}</td>
              <td class="num">
                {g.thumbs_up} / {g.thumbs_down}
              </td>
              {kind === 'gaps' ? <td class="wrap-anywhere">{(g.pages ?? []).map((p) => `${p.url ?? 'unknown page'} (${p.count})`).join(', ')}</td> : null}
            </tr>
          ))}
        </TableWrap>
      ) : null}
    </>
  );
}
