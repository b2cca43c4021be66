"""Ways for people to play: the terminal client (web app to come)."""
