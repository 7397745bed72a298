"""Pure rules of Swords & Stones: no Django, no database, no clock, no hidden dice.

* ``grand_campaign``: the campaign map, Territory states, challenges, capitals, Kings, new
  players and supply lines (SNS-GC, SNS-CAP, SNS-KING, SNS-NEW, SNS-SUP).
* ``points``: Victory and Vengeance points, what they buy and the starting stockpile they feed
  (SNS-PTS, SNS-VP, SNS-VEN), and the campaign standings.
* ``titles``: the Title catalogue, post-game statistics, Mystery Crate items and game results
  (SNS-TITLE, SNS-STAT, SNS-CRATE, SNS-RES, SNS-SCORE).
"""
