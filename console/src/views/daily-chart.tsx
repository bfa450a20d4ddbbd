import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';

const COLORS = ['#0b57d0', '#e8710a', '#188038', '#a142f4', '#d93025', '#12a4af'];

/**
 * A per-day line chart (uPlot, loaded with the insights view only). The canvas is described by its label and the
 * same numbers are in a table a screen reader (or anyone) can open.
 */
export function DailyChart({ label, x, series }: { label: string; x: number[]; series: { label: string; values: number[] }[] }) {
  const host = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(280, Math.floor(el.clientWidth))));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const dark = getComputedStyle(document.documentElement).getPropertyValue('color-scheme').includes('dark');
    const axis = { stroke: dark ? '#a9b0bc' : '#545b66', grid: { stroke: dark ? '#2c3138' : '#e3e6eb' } };
    const chart = new uPlot(
      {
        width,
        height: 240,
        series: [{}, ...series.map((s, i) => ({ label: s.label, stroke: COLORS[i % COLORS.length], width: 2, fill: `${COLORS[i % COLORS.length]}22` }))],
        axes: [axis, { ...axis, size: 60 }],
        scales: { x: { time: true } },
        legend: { show: series.length > 1 },
      },
      [x, ...series.map((s) => s.values)],
      el,
    );
    chart.root.setAttribute('aria-hidden', 'true');
    return () => chart.destroy();
  }, [x, series, width]);
  return (
    <figure class="card">
      <figcaption>
        <strong>{label}</strong>
      </figcaption>
      <div ref={host} class="chart" role="img" aria-label={`${label}: chart; the numbers are in the table below it`} />
      <details>
        <summary>Show as a table</summary>
        <div class="table-wrap" role="region" aria-label={`${label} as a table`} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                {series.map((s) => (
                  <th scope="col" class="num" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {x.map((t, i) => (
                <tr key={t}>
                  <td>{new Date(t * 1000).toISOString().slice(0, 10)}</td>
                  {series.map((s) => (
                    <td class="num" key={s.label}>
                      {s.values[i]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
