// Plots under the view: plain canvas 2D line plots of per-step figures with a marker at the
// current step; a click on a plot seeks to that step.
const COLORS = ['#7fc4ff', '#ffb45c', '#8be28b', '#e68be6', '#e6e68b'];

export class Plot {
  /** canvas: its element; series: [{ name, values (one per frame) }]; onSeek(k) on a click. */
  constructor(canvas, title, series, onSeek) {
    this.canvas = canvas;
    this.title = title;
    this.series = series;
    this.note = series.length === 0 ? 'not in this recording' : '';
    this.current = 0;
    this.background = document.createElement('canvas');
    canvas.addEventListener('click', (e) => {
      const frames = this.frameCount();
      if (frames === 0) return;
      const r = canvas.getBoundingClientRect();
      const x = (e.clientX - r.left) / r.width;
      onSeek(Math.round(((x * this.width - this.left) / this.plotWidth()) * (frames - 1)));
    });
  }

  frameCount() { return this.series.length ? this.series[0].values.length : 0; }
  plotWidth() { return Math.max(this.width - this.left - 6, 1); }

  resize() {
    const ratio = window.devicePixelRatio || 1;
    this.width = Math.max(this.canvas.clientWidth, 50);
    this.height = Math.max(this.canvas.clientHeight, 40);
    this.ratio = ratio;
    for (const c of [this.canvas, this.background]) {
      c.width = Math.round(this.width * ratio);
      c.height = Math.round(this.height * ratio);
    }
    this.left = 46;
    this.renderBackground();
    this.draw(this.current);
  }

  // The series, drawn once per size (a seek only redraws the marker).
  renderBackground() {
    const g = this.background.getContext('2d');
    g.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    g.clearRect(0, 0, this.width, this.height);
    g.font = '11px system-ui, sans-serif';
    g.fillStyle = '#aab4bf';
    g.fillText(this.title, this.left, 12);
    const frames = this.frameCount();
    if (this.note || frames === 0) {
      g.fillText(this.note, this.left, this.height / 2);
      return;
    }
    let lo = Infinity, hi = -Infinity;
    for (const s of this.series) for (const v of s.values) if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    if (!Number.isFinite(lo)) { lo = 0; hi = 1; }
    if (lo > 0) lo = 0;
    if (hi - lo < 1e-9) hi = lo + 1;
    this.range = [lo, hi];
    const top = 18, bottom = this.height - 6, w = this.plotWidth();
    const y = (v) => bottom - ((v - lo) / (hi - lo)) * (bottom - top);
    g.fillStyle = '#6c7783';
    g.fillText(formatValue(hi), 2, top + 8);
    g.fillText(formatValue(lo), 2, bottom);
    g.strokeStyle = '#2f363e';
    g.strokeRect(this.left, top, w, bottom - top);
    this.series.forEach((s, n) => {
      g.strokeStyle = COLORS[n % COLORS.length];
      g.lineWidth = 1;
      g.beginPath();
      const v = s.values;
      for (let k = 0; k < v.length; ++k) {
        const px = this.left + (frames > 1 ? (k / (frames - 1)) * w : 0);
        if (k === 0) g.moveTo(px, y(v[k]));
        else g.lineTo(px, y(v[k]));
      }
      g.stroke();
      if (this.series.length > 1) {
        g.fillStyle = COLORS[n % COLORS.length];
        g.fillText(s.name, this.left + 4 + 95 * n, top + 12);
      }
    });
  }

  /** Redraws with the marker at step k and the current values in the title line. */
  draw(k) {
    this.current = k;
    const g = this.canvas.getContext('2d');
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, this.canvas.width, this.canvas.height);
    g.drawImage(this.background, 0, 0);
    const frames = this.frameCount();
    if (this.note || frames === 0) return;
    g.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    const x = this.left + (frames > 1 ? (k / (frames - 1)) * this.plotWidth() : 0);
    g.strokeStyle = '#ff5c5c';
    g.beginPath();
    g.moveTo(x, 16);
    g.lineTo(x, this.height - 6);
    g.stroke();
    g.font = '11px system-ui, sans-serif';
    g.fillStyle = '#dde3ea';
    g.textAlign = 'right';
    g.fillText(formatValue(this.series[0].values[k]), this.width - 6, 12);
    g.textAlign = 'left';
  }
}

function formatValue(v) {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 0.01 || a >= 1e5)) return v.toExponential(2);
  return v.toFixed(a < 10 ? 3 : 1);
}
