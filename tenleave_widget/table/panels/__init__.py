"""The odds panels: their data, figures and the background feeds behind them.
"""
