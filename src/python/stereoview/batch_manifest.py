"""The batch manifest: OUT/batch-manifest.json, the record of a job's finished chunks. Only the
client writes it, whole each time (a temporary file renamed over it), so a reader or a killed
run never leaves half a manifest; a rerun reads it and skips the chunks it lists as done."""
import json
import os
import time

MANIFEST_NAME = "batch-manifest.json"


class ManifestMismatch(ValueError):
    """The output folder holds the manifest of another job."""


class Manifest:
    def __init__(self, out, job, total_frames):
        self.path = os.path.join(out, MANIFEST_NAME)
        self._data = {"job": job.fingerprint(), "state": "running", "total_frames": total_frames,
                      "frames_done": 0, "chunks": {}, "errors": []}
        if os.path.exists(self.path):
            with open(self.path, encoding="utf-8") as f:
                earlier = json.load(f)
            if earlier.get("job") != self._data["job"]:
                raise ManifestMismatch(
                    f"{self.path} belongs to another job (other sources, parameters or chunk "
                    "size); use another output folder, or remove the manifest to start again")
            # Chunks that failed are run again: their source may have been mended since.
            self._data["chunks"] = {k: c for k, c in earlier.get("chunks", {}).items()
                                    if c.get("status") == "done"}
        self._count_frames()

    def is_done(self, chunk):
        return chunk.key in self._data["chunks"]

    def record(self, result):
        """A chunk the workers finished (batch_worker.run_chunk's result): done when every
        frame was written, failed otherwise (its errors say which frame and why)."""
        self._data["chunks"][result["key"]] = {
            "source": result["source"], "start": result["start"], "frames": result["frames"],
            "status": "failed" if result["errors"] else "done", "errors": result["errors"],
            "worker": result["worker"], "seconds": round(result["seconds"], 3),
            "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        self._count_frames()

    def add_error(self, message):
        self._data["errors"].append(message)

    @property
    def frames_done(self):
        return self._data["frames_done"]

    def save(self, state):
        """state: "running", "complete", "complete with errors" or "interrupted"."""
        self._data["state"] = state
        temporary = f"{self.path}.{os.getpid()}.tmp"
        with open(temporary, "w", encoding="utf-8") as f:
            json.dump(self._data, f, indent=1, sort_keys=True)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, self.path)

    def _count_frames(self):
        self._data["frames_done"] = sum(c["frames"] for c in self._data["chunks"].values()
                                        if c["status"] == "done")
