"""A batch job and its chunks: which sources, which outputs, and how each source is cut into
pieces of frames that any worker can compute alone (a video by frame ranges, a dataset by pairs).
"""
import os
import re
import shlex
from dataclasses import dataclass, field

# The per-frame files `stereoview --headless --out DIR` writes, by name.
OUTPUTS = ("pfm", "png")
# A flag naming the file or folder a source reads, in the order its name is taken from.
_PATH_FLAGS = ("sbs", "tb", "left", "dataset")


def parse_source_flags(text):
    """The CLI's source flags as open_source() keywords: "--sbs a.mp4 --swap-views" ->
    {"sbs": "a.mp4", "swap_views": True}. ValueError for anything that is not a flag."""
    words = shlex.split(text)
    flags = {}
    i = 0
    while i < len(words):
        word = words[i]
        if not word.startswith("--") or len(word) < 3:
            raise ValueError(f'source "{text}": expected --flag [value], got "{word}"')
        name = word[2:].replace("-", "_")
        if i + 1 < len(words) and not words[i + 1].startswith("--"):
            flags[name] = words[i + 1]
            i += 2
        else:
            flags[name] = True
            i += 1
    return flags


def flags_text(flags):
    """The CLI's spelling of open_source() keywords, for messages and the manifest."""
    words = []
    for name, value in flags.items():
        if value is False:
            continue
        words.append("--" + name.replace("_", "-"))
        if value is not True:
            words.append(str(value))
    return shlex.join(words)


def source_name(flags):
    """A short name for a source's output folder: its file's or folder's name."""
    for key in _PATH_FLAGS:
        if key in flags:
            name = os.path.basename(os.path.normpath(str(flags[key])))
            stem = os.path.splitext(name)[0] if key != "dataset" else name
            return re.sub(r"[^A-Za-z0-9_.-]+", "_", stem) or "source"
    return "source"


@dataclass(frozen=True)
class Job:
    """What every chunk needs: the sources (open_source() keywords each), the output folder, the
    matcher's settings and the outputs to write. Picklable: it travels to the workers."""
    sources: tuple
    out: str
    algorithm: str = "census-sgm"
    engine: str = "auto"
    preset: str = None
    params: tuple = ()  # (key, value) pairs, Matcher keywords
    outputs: tuple = OUTPUTS
    colormap: str = "turbo"
    chunk_frames: int = 50
    cpu_threads: int = 0  # the CPU engine's threads in each worker (0: one per core)

    def output_folder(self, source):
        """One source writes into `out` itself, as `stereoview --headless --out` does; several
        each into a folder of their own, numbered in job order."""
        if len(self.sources) == 1:
            return self.out
        return os.path.join(self.out, f"{source:02d}-{source_name(self.sources[source])}")

    def describe_source(self, source):
        return f"source {source} ({flags_text(self.sources[source])})"

    def fingerprint(self):
        """Everything that decides the files and the chunks: a rerun continues a job only when
        this is unchanged."""
        return {"sources": [flags_text(s) for s in self.sources], "algorithm": self.algorithm,
                "engine": self.engine, "preset": self.preset,
                "params": {k: str(v) for k, v in self.params}, "outputs": list(self.outputs),
                "colormap": self.colormap, "chunk_frames": self.chunk_frames}


@dataclass(frozen=True)
class Chunk:
    """Frames [start, start + count) of one source; count None: to the source's end (the last
    chunk of a file, whose announced frame count may be short of its real one)."""
    source: int
    start: int
    count: int = None

    @property
    def key(self):
        return f"s{self.source:03d}-f{self.start:09d}"


@dataclass
class Plan:
    chunks: list = field(default_factory=list)
    frames: dict = field(default_factory=dict)  # source -> announced frame count
    errors: list = field(default_factory=list)  # sources that cannot be run, with why


def plan_chunks(job, open_source):
    """Cuts every source of `job` into chunks of job.chunk_frames frames (a dataset's pairs
    likewise). A source that cannot be opened, or has no frame count (a camera), is an error of
    the plan and the others go on."""
    plan = Plan()
    for i, flags in enumerate(job.sources):
        try:
            source = open_source(**flags)
            count = source.frame_count
            if source.is_live or count < 0:
                raise ValueError("a live or endless source cannot be cut into chunks")
        except (ValueError, OSError, RuntimeError) as error:
            plan.errors.append(f"{job.describe_source(i)}: {error}")
            continue
        plan.frames[i] = count
        starts = list(range(0, count, job.chunk_frames)) or [0]
        for n, start in enumerate(starts):
            last = n == len(starts) - 1
            plan.chunks.append(Chunk(i, start, None if last else job.chunk_frames))
    return plan
