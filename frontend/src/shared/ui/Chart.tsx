/**
 * The one chart.js wrapper: a bar chart. chart.js is loaded (and its parts registered) on first
 * use only, so pages without a chart never download it. The canvas carries the figures as an
 * accessible table for screen readers (and for tests, which draw no canvas).
 */
import { useEffect, useRef, useState } from "react";

export interface BarSeries {
  label: string;
  data: number[];
  colour: string;
}

export interface BarChartProps {
  labels: string[];
  series: BarSeries[];
  /** What the chart shows, read to screen readers. */
  label: string;
  height?: number;
  /** Format the y axis and the table's figures (money, counts). */
  format?: (value: number) => string;
}

type ChartModule = typeof import("chart.js");
let loading: Promise<ChartModule> | null = null;

/** chart.js with the bar chart's parts registered, once per page. */
export function loadChartJs(): Promise<ChartModule> {
  loading ??= import("chart.js").then((module) => {
    module.Chart.register(module.BarController, module.BarElement, module.CategoryScale, module.LinearScale, module.Legend, module.Tooltip);
    return module;
  });
  return loading;
}

export function BarChart({ labels, series, label, height = 280, format = String }: BarChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  const formatRef = useRef(format);
  useEffect(() => {
    formatRef.current = format;
  }, [format]);

  useEffect(() => {
    let chart: { destroy: () => void } | null = null;
    let cancelled = false;
    loadChartJs()
      .then(({ Chart }) => {
        const element = canvas.current;
        if (cancelled || !element || !element.getContext?.("2d")) return;
        chart = new Chart(element, {
          type: "bar",
          data: { labels, datasets: series.map((item) => ({ label: item.label, data: item.data, backgroundColor: item.colour })) },
          options: {
            responsive: true,
            maintainAspectRatio: false,
            animation: false,
            plugins: { legend: { position: "top" } },
            scales: { y: { beginAtZero: true, ticks: { precision: 0, callback: (value) => formatRef.current(Number(value)) } } },
          },
        });
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [labels, series]);

  return (
    <div className="bar-chart" style={{ position: "relative", height }}>
      <canvas ref={canvas} role="img" aria-label={label}>
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              {series.map((item) => (
                <th key={item.label} scope="col">
                  {item.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((name, index) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                {series.map((item) => (
                  <td key={item.label}>{format(item.data[index] ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </canvas>
      {failed && <p className="dash-empty">The chart could not be drawn.</p>}
    </div>
  );
}
