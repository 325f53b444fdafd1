import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from "chart.js";
import { useEffect, useRef } from "react";
import type { ChartSeries } from "../../features/dashboard/stats";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

export function StatisticChart({ series }: { series: ChartSeries }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: "bar",
      data: {
        labels: series.labels,
        datasets: [
          { label: "Event Spaces", data: series.eventSpaces, backgroundColor: "#2563eb" },
          { label: "Work Spaces", data: series.workSpaces, backgroundColor: "#f59e0b" },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: { legend: { position: "top" } },
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
    return () => chart.destroy();
  }, [series]);
  return (
    <div style={{ position: "relative", height: 280 }}>
      <canvas ref={canvas} role="img" aria-label="Bookings of event spaces and work spaces" />
    </div>
  );
}
