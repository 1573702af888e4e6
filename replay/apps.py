from django.apps import AppConfig


class ReplayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "replay"
    verbose_name = "Replay (read side)"

    def ready(self) -> None:
        from matches.signals import archive_verifying, events_appended, tables_changed
        from replay import tasks
        from replay.live.announce import announced, committed, hall_changed
        from replay.projections.faults import faults_in_words
        from replay.projections.signals import standings_committed

        # The live push follows the committed log (the event log is the
        # outbox): the write side announces, the read side listens.
        events_appended.connect(committed, dispatch_uid="replay.live")
        # So do the read models: the projector catches up, through Celery.
        events_appended.connect(tasks.committed, dispatch_uid=tasks.COMMITTED_UID)
        # A hall's viewers read it again when its tables or a match's table change.
        tables_changed.connect(hall_changed, dispatch_uid="replay.live.hall")
        # And a new version of standings reaches its viewers: the projector, below the live
        # push, sends a signal rather than calling up.
        standings_committed.connect(announced, dispatch_uid="replay.live.standings")
        # verify_archive names each competition whose read model the projector could not write.
        archive_verifying.connect(faults_in_words, dispatch_uid="replay.faults")
