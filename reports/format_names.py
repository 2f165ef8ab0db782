"""The names of the output formats, apart from reports.formats (which imports numpy), so that the command
line offers them as choices without importing it."""

FORMATS = ("table", "csv", "json", "markdown", "latex", "html")
