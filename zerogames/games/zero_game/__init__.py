"""Zero Game: its rules (rules.py), its bot (bot.py) and its table (table.py); docs/rules/zero_game.md."""
