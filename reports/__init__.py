"""Everything a person sees: tables, plots, exports and the `balance` command line."""
