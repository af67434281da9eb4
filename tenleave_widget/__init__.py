"""tenleave_widget: the card game 10 to Leave, for Jupyter."""
