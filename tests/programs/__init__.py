"""Tests of tenleave_widget.programs."""
