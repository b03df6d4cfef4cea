import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import type { AuctionTimeline } from '../../../../../api/contracts/audit';
import type { PriceChartHandle, PriceChartSpec } from './draw-price-chart';
import { axisTimes, priceChartSummary, priceSeries } from './timeline-view';

/**
 * The price over time, drawn once Chart.js has loaded (its own chunk); moving to another step
 * moves the current-step line without drawing the chart again. Its accessible name says in words
 * what it shows; the steps list beside it has every figure.
 */
export function PriceChart({ timeline, step, onSelect }: { timeline: AuctionTimeline; step: number; onSelect: (step: number) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<PriceChartHandle | null>(null);
  const [status, setStatus] = useState<'loading' | 'drawn' | 'failed'>('loading');
  const spec = useMemo<PriceChartSpec>(() => ({ series: priceSeries(timeline.steps), times: axisTimes(timeline.steps) }), [timeline]);
  const select = useEffectEvent(onSelect);
  const initialStep = useEffectEvent(() => step);

  useEffect(() => {
    let gone = false;
    import('./draw-price-chart').then(
      ({ drawPriceChart }) => {
        if (gone || !canvas.current) return;
        chart.current = drawPriceChart(canvas.current, spec, initialStep(), (chosen) => select(chosen));
        setStatus('drawn');
      },
      () => !gone && setStatus('failed'),
    );
    return () => {
      gone = true;
      chart.current?.destroy();
      chart.current = null;
    };
  }, [spec]);

  useEffect(() => {
    chart.current?.showStep(step);
  }, [step, status]);

  return (
    <div className={`timeline__chart${status === 'loading' ? ' skeleton' : ''}`}>
      {status === 'failed' ? (
        <p className="muted">The chart could not be loaded; the list of steps has every price.</p>
      ) : (
        <canvas ref={canvas} role="img" aria-label={priceChartSummary(timeline)} data-testid="price-chart" data-drawn={status === 'drawn'} />
      )}
    </div>
  );
}
