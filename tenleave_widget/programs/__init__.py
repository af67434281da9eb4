"""Programs built on everything below: :mod:`.simulate` (self-play statistics on every
core or a Dask cluster), :mod:`.cli` (the ``tenleave`` command) and :mod:`.export` (a game
as one offline HTML page)."""
