"""The table in words: turns and swats narrated (:mod:`.narration`), errors in plain words
(:mod:`.errors`), a review's breakdown in sentences (:mod:`.review_breakdown`) and the
coach's advice (:mod:`.coach`).
"""
