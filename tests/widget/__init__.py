"""Tests of tenleave_widget.widget."""
