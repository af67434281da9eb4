"""The coach at the table: a decision judged after it is played (:mod:`.verdicts`), checked
before it ends (:mod:`.check`), and what the table shows of both (:mod:`.table`).
"""
