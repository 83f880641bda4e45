"""RunTable (run_table.py), the table of runs drawn a line at a time from an index, with its
columns (table_columns.py) and cells (run_cells.py)."""
