"""cardlab: faithful digital card games with AI players and a Monte Carlo balance lab."""

__version__ = "0.1.0"
