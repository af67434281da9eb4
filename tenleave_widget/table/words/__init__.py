"""The table in words, in one place a teacher can translate: turns and swats narrated
(:mod:`.narration`), the status line and its messages (:mod:`.status`), errors in plain
words (:mod:`.errors`), a review's breakdown in sentences (:mod:`.review_breakdown`) and
the coach's advice (:mod:`.coach`).
"""
