"""Tests of tenleave_widget.engine."""
