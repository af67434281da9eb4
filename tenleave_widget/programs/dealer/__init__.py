"""The dealer server (``tenleave serve``): students at their own laptops play each other,
each sent only its seat's view. :mod:`.wire` is the protocol (``docs/wire.md``),
:mod:`.store` the SQLite store, :mod:`.dealer` the tables and seats, :mod:`.server` the
WebSocket server, :mod:`.client` a client."""
