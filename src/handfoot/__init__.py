"""handfoot: the card game Hand and Foot, with every table's house rules as data."""

__version__ = "0.1.0"
