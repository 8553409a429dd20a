"""The rehearsal (`stredisko rehearse`, issue #7): a scripted online qualifier played offline
through the real services, store, scraper and timers, against the local herna.net simulator.

`scenario` reads and checks the TOML file, `engine` runs it (`rehearse(scenario, db)`),
`events` plays the scenario's events, `output` renders the transcript and the JSON document,
`command` is the CLI subcommand.
"""
