"""The web app: FastAPI server, live games and the browser front end (extra: `cardlab[web]`)."""
