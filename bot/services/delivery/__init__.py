"""Delivering the messages use cases queue: the outbox and its admin, the one bot per database
(the lease) and the bot's background loops."""
