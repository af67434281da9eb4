"""The odds panels: their data from a seat's view (:mod:`.data`), as Plotly figures
(:mod:`.figures`; in plain words, :mod:`.plain`), the panels of a session (:mod:`.feed`),
and the two filled in the background: the moves' whole-game values (:mod:`.lookahead`)
and what the players' choices suggest (:mod:`.suggest`, its figure :mod:`.suggest_chart`).
"""
