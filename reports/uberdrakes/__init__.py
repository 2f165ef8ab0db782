"""UberDrakes' reports and commands."""
