"""Matcher: one engine and its parameters, with every parameter of the registry as an
attribute (dashes of the CLI's names become underscores: --adaptive-p2 -> m.adaptive_p2; the
keyword `lambda` is m.lambda_)."""
from stereoview import _stereoview

_KEYS = frozenset(_stereoview.parameter_keys())


def _key(name):
    # A trailing underscore spells a Python keyword: m.lambda_ is the parameter "lambda".
    return name.rstrip("_").replace("_", "-")


class Matcher:
    """Matcher(algorithm="census-sgm", engine="auto", preset=None, **params)

    engine: "cpu", "cuda" or "auto" (CUDA when built and a GPU is there). preset: a preset file
    in the CLI's format, read before **params. Bad parameters raise ValueError with the CLI's
    message; nothing changes then."""

    def __init__(self, algorithm="census-sgm", engine="auto", preset=None, **params):
        object.__setattr__(self, "_engine", _stereoview._Matcher(engine))
        if preset is not None:
            self._engine.load_preset(str(preset))
        self._engine.set_many({"algorithm": algorithm, **{_key(k): v for k, v in params.items()}})

    # Parameters by attribute: m.p2 = 90, m.census_window.
    def __getattr__(self, name):
        if _key(name) in _KEYS:
            return self._engine.get(_key(name))
        raise AttributeError(f"Matcher has no attribute or parameter {name!r}")

    def __setattr__(self, name, value):
        if _key(name) not in _KEYS:
            raise ValueError(f'unknown parameter "{_key(name)}"')
        self._engine.set_many({_key(name): value})

    def __dir__(self):
        return sorted(set(super().__dir__()) | {k.replace("-", "_") for k in _KEYS})

    @property
    def params(self):
        """Every parameter as a dict, keyed by the CLI's names (with dashes)."""
        return self._engine.params()

    def set_params(self, **params):
        """Sets several parameters at once, checked together."""
        self._engine.set_many({_key(k): v for k, v in params.items()})

    @property
    def engine(self):
        """The engine's name, e.g. "cpu" or "cuda"."""
        return self._engine.engine

    @property
    def notices(self):
        """What choosing the engine said (e.g. why "auto" took the CPU)."""
        return self._engine.notices

    def load_preset(self, path):
        """Reads a preset file (key = value lines, as `stereoview --save-preset` writes)."""
        self._engine.load_preset(path)

    def save_preset(self, path):
        self._engine.save_preset(path)

    # One Matcher may be shared by threads: each frame is bound to the ticket its submit returned,
    # so a thread only ever receives its own results, and compute() submits and collects as one
    # call. Frames that cannot fit in memory raise MemoryError before anything is allocated.

    def compute(self, left, right, confidence=False):
        """The disparity of the left view, float32 px, NaN where no match survived.
        With confidence=True, (disparity, confidence) with confidence in [0, 1]."""
        disparity, conf = self._engine.compute(left, right, False, confidence)
        return (disparity, conf) if confidence else disparity

    def compute_fixed(self, left, right):
        """The engine's exact result: int16 in 1/16 px (invalid as the engine marks it)."""
        return self._engine.compute(left, right, True, False)[0]

    def compute_many(self, pairs, confidence=False):
        """Yields compute()'s result for each (left, right) of the iterable `pairs`, keeping two
        frames in the engine so it computes one while the other is handed over."""
        tickets = []
        try:
            for left, right in pairs:
                tickets.append(self._engine.submit(left, right, False, confidence))
                if len(tickets) == 2:
                    yield self._collect(tickets.pop(0), confidence)
            while tickets:
                yield self._collect(tickets.pop(0), confidence)
        finally:
            # A loop left early (break, an error) leaves no frame behind in the engine.
            for ticket in tickets:
                try:
                    self._engine.collect(ticket, False)
                except (ValueError, RuntimeError, MemoryError):
                    pass

    def _collect(self, ticket, confidence):
        disparity, conf = self._engine.collect(ticket, False)
        return (disparity, conf) if confidence else disparity

    @property
    def timings(self):
        """The last frame's stage timings: {stage: milliseconds}, in the order they ran."""
        return self._engine.timings()

    def __repr__(self):
        return f"Matcher(algorithm={self.algorithm!r}, engine={self.engine!r})"
