"""The session: the table's state machine and its parts, pure (no Jupyter).
"""
