"""The progress line of a batch run: frames done / total, frames/s of this run, each worker's
share, the time left; rewritten in place on a terminal, a line every few seconds otherwise."""
import time


def duration_text(seconds):
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


class Progress:
    def __init__(self, stream, total_frames, frames_before, interval_s=None):
        self._stream = stream
        self._terminal = hasattr(stream, "isatty") and stream.isatty()
        self._interval_s = interval_s if interval_s is not None else (0.5 if self._terminal else 5.0)
        self._total = total_frames
        self._before = frames_before  # done by earlier runs (the manifest's)
        self._this_run = 0
        self._per_worker = {}
        self._running = {}
        self._began = time.monotonic()
        self._shown = 0.0

    def chunk_done(self, worker, frames):
        self._this_run += frames
        self._per_worker[worker] = self._per_worker.get(worker, 0) + frames
        self.show()

    def running(self, per_worker):
        """Chunks each worker holds now (the scheduler's view)."""
        self._running = per_worker

    def frames_per_second(self):
        elapsed = time.monotonic() - self._began
        return self._this_run / elapsed if elapsed > 0 else 0.0

    def line(self):
        done = self._before + self._this_run
        rate = self.frames_per_second()
        parts = [f"frames {done}/{self._total}", f"{rate:.1f} frames/s"]
        workers = sorted(set(self._per_worker) | set(self._running))
        if workers:
            parts.append("workers " + ", ".join(
                f"{w} {self._per_worker.get(w, 0)} frames/{self._running.get(w, 0)} running"
                for w in workers))
        if rate > 0 and self._total > done:
            parts.append(f"left {duration_text((self._total - done) / rate)}")
        return "; ".join(parts)

    def show(self, force=False):
        now = time.monotonic()
        if not force and now - self._shown < self._interval_s:
            return
        self._shown = now
        end = "\r" if self._terminal else "\n"
        self._stream.write(self.line() + end)
        self._stream.flush()

    def finish(self):
        self.show(force=True)
        if self._terminal:
            self._stream.write("\n")
