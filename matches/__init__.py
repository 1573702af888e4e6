"""Write side: the rules engine, the notation, the event store and the services."""
