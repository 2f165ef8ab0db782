"""Warbound's reports and commands."""
