"""Tests of tenleave_widget.analysis."""
