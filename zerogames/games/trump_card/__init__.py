"""Trump Card: its rules (rules.py), its bot (bot.py) and its table (table.py); docs/rules/trump_card.md."""
