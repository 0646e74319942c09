"""Pure tracking logic: alert rules, the runs metric points belong to, the merge of trace
records and the rows (usage, cost) derived from them. No I/O."""
