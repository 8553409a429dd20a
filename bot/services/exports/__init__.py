"""Files written for the association (results, the screlo list) and for other programs (TSH, TRF),
and the CSV that Slovak Excel opens."""
