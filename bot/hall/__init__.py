"""The hall computer's word-check page (issue 22 item 5): `stredisko word --serve`.

- `page`: the HTML (pure rendering, no script, no external asset);
- `server`: the aiohttp application serving it on 127.0.0.1 by default.
"""
