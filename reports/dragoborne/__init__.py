"""Dragoborne's reports and commands."""
