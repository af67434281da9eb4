"""Tests of tenleave_widget.table."""
