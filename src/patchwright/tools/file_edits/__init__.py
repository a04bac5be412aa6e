"""One file's edits, one tool per way of naming them (spec 002): ``edit_file`` (string
replacement), ``edit_lines`` (line ranges) and ``apply_diff`` (a unified diff on one
target; its answers are in ``tools.diff_report``).
"""
