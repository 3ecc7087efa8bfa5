"""Textual pieces both table apps share: sign-in, supervisor panel, recall, i18n, the CLI frame.

Modules here that the command line imports (``cli``, ``options``, ``i18n``, ``supervisor``)
stay free of Textual so a supervisor tool starts fast; screens and widgets import Textual.

- ``app.TableApp(engine, *, lang, training, seed, recall_rounds, tz)`` — the base app: start-up
  (first-run supervisor enrolment, croupier sign-in, recovery notice), F1 help, F2 supervisor
  panel (priority), F3 recall, ctrl+q (asks during a round); ``command(fn, *args)`` runs an
  engine command and shows a refusal on the ``MessageLine``; the F2 panel's lines and their one
  dispatch come from the engine's command table (``shared.commands``). Hooks:
  ``make_table_screen``, ``describe_entry`` (a supervisor's entry, confirmed),
  ``refresh_table``, ``describe_event``, ``unbound_key``. Its ``BINDINGS``, derived from the
  game's ``KEYS`` (``keys.KeyTable``: each key by the engine command it runs, with an id for
  ``set_keymap``; ``check_action`` asks the key's declaration), are the one key table:
  described ones are lines of the key bar and F1 help; on the table screen and in every
  ``FormScreen`` the app resolves each key against them itself, in the order typed
  (``on_event``). ``BASE_CSS``.
- ``supervisor``: ``SupervisorAction(id, label, fields)``, ``SupervisorField(key, label,
  placeholder)``, ``SupervisorRequest(action, credentials, reason, values)``,
  ``SupervisorResult``; ``screens.supervisor.SupervisorPanel(actions, perform, lang)``.
- ``screens``: ``form.FormScreen`` (a dialog of fields: ``submit(field)`` on enter),
  ``sign_in.SignInScreen(open_shift, lang)``, ``enrol.EnrolScreen(enrol, *, title,
  help_text, lang, optional)``, ``recall.RecallScreen(journal, lang, *, rounds, describe)``,
  ``notice.NoticeScreen`` / ``recovery_notice(round_id, lang)`` / ``ConfirmScreen`` /
  ``HelpScreen``.
- ``widgets``: ``AmountEntry`` (``press(key, character)`` → ``AmountKey``: digits, comma,
  backspace; stays open until the app closes it), ``CardEntry`` (poker rank+suit;
  ``press`` → ``CardKey``) and ``BACCARAT_CARD_KEYS`` / ``baccarat_rank_for_key``,
  ``MessageLine``, ``KeyBar`` / ``key_lines``, ``TrainingBanner``, ``QuietStatic``.
- ``i18n``: ``t(key, lang, **values)`` (the catalogs' ``[ui]`` section), ``input_error(key, **values)``.
"""
