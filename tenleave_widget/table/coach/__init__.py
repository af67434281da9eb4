"""The coach at the table: verdicts after a turn, the check before it, and what
the table shows of both.
"""
