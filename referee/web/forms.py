"""Forms: their shape only; the rules are the engine's."""
import json

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import HiddenField, IntegerField, PasswordField, RadioField, SelectField, SelectMultipleField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, Optional, ValidationError

from flask_babel import lazy_gettext as _l

from ..services import rulesets
from ..screens.forms import MAX_MINUTES, names_of, option_overrides
from ..screens.refusals import detail as refusal_detail
from ..services.games import (
    MAX_NAME, MAX_PLAYERS, MAX_TITLE, json_whole, LARGEST, NotWhole, text_problem, whole_number)
from ..services.entry_keys import KEY
from ..services.sync import CHOICES, MAX_TAPS, KeptRun, KeptTap
from ..services.pins import PIN_MIN
from ..services.roster import MAX_TOURNAMENT_PLAYERS, bad_player_line, player_line




def plain_text(maximum: int):
    """A validator: at most ``maximum`` characters, none that cannot be stored or shown (NUL, a control
    character, half of a surrogate pair)."""
    def check(form, field):
        problem = text_problem(str(field.label.text), field.data or "", maximum)
        if problem:
            raise ValidationError(refusal_detail(problem))
    return check


def whole(text: str) -> int:
    """A whole number a request carries (``request.form.get("round", type=whole)``, an address's ``?page=``): its
    length bounded before it is read (:func:`whole_number`); :class:`NotWhole` (a ValueError) otherwise, which makes
    werkzeug's ``get`` answer its default."""
    return whole_number("number", text, -LARGEST, LARGEST)


class WholeNumberField(IntegerField):
    """A whole number from ``minimum`` to ``maximum`` typed in a form: what was typed is read only when it is
    digits no longer than ``maximum``'s (a time limit of 400 digits is refused as typed, never converted nor
    compared as a float), and refused with a message naming the limits otherwise."""

    def __init__(self, label, minimum: int, maximum: int, **kwargs):
        super().__init__(label, validators=[Optional()], **kwargs)
        self.minimum, self.maximum = minimum, maximum

    def process_formdata(self, valuelist):
        typed = valuelist[0].strip() if valuelist else ""
        if not typed:
            return
        try:
            self.data = whole_number(self.name, typed, self.minimum, self.maximum)
        except NotWhole:
            self.data = None
            raise ValueError(_l("must be a whole number from %(min)s to %(max)s", min=self.minimum,
                                max=self.maximum)) from None


def one_name_per_line(most: int, divisions: bool = False):
    """A validator for a list of players typed one per line: at most ``most`` lines, each a plain name of at most
    :data:`MAX_NAME` characters (with ``divisions``, a tournament's: "Name | Division | invited", the name and the
    division each at most that long)."""
    def check(form, field):
        lines = [line.strip() for line in (field.data or "").splitlines() if line.strip()]
        if len(lines) > most:
            raise ValidationError(_l("at most %(n)s players", n=most))
        for line in lines:
            try:
                name, division, _invited = player_line(line) if divisions else (line, "", False)
            except ValueError as exc:
                raise ValidationError(refusal_detail(bad_player_line(exc))) from None
            for text in (name, division):
                problem = text_problem(repr(text[:40]), text, MAX_NAME)
                if problem:
                    raise ValidationError(refusal_detail(problem))
    return check


def _choices(*pairs: tuple[str, str]) -> list:
    """Choices as WTForms wants them (SelectChoice from 3.3 on; plain pairs before)."""
    try:
        from wtforms.fields.choices import SelectChoice
    except ImportError:  # pragma: no cover - older WTForms
        return list(pairs)
    return [SelectChoice(value, label) for value, label in pairs]


def named_choices(available: list[str], names) -> list[tuple[str, str]]:
    """(id, name in the device's language) for a select."""
    from ..language.i18n import current_language

    lang = current_language()
    out = []
    for key in available:
        try:
            name = names(key)
        except rulesets.RulesetError:  # a broken file still shows, by its id; creating with it says what is wrong
            name = {}
        out.append((key, name.get(lang) or name.get("en") or key))
    return out


class NewGameForm(FlaskForm):
    title = StringField(_l("Title"), validators=[Optional(), plain_text(MAX_TITLE)])
    ruleset = SelectField(_l("Ruleset"), default=rulesets.DEFAULT_RULESET)
    players = TextAreaField(_l("Players, one per line, in seat order"),
                            validators=[DataRequired(), Length(max=MAX_PLAYERS * (MAX_NAME + 2)),
                                        one_name_per_line(MAX_PLAYERS)])
    seating = RadioField(_l("Order of play"), choices=_choices(("roll", _l("seating roll-off")), ("fixed", _l("as listed"))),
                         default="roll")
    time_limit = WholeNumberField(_l("Time limit (minutes)"), 1, MAX_MINUTES)
    pin = PasswordField(_l("Referee PIN"), validators=[DataRequired(), Length(min=PIN_MIN, max=64)])
    # the house rules and variants in play, as "RULESET:OPTION", one switch each (by default as the file plays them)
    house_rules = SelectMultipleField(_l("House rules"))
    house_rules_shown = HiddenField()  # "1" when the switches were on the form: those not sent are switched off

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ruleset.choices = named_choices(rulesets.available(), lambda key: rulesets.load(key).name)
        switches = [f"{rid}:{option}" for rid, rules in self.house_rule_switches() for option in rules]
        self.house_rules.choices = [(v, v) for v in switches]
        if not self.is_submitted():  # each as the ruleset file plays it: house rules on, variants off
            self.house_rules.data = [f"{rid}:{option}" for rid, rules in self.house_rule_switches()
                                     for option, rule in rules.items() if rule.default_on]

    @staticmethod
    def house_rule_switches() -> list[tuple[str, dict]]:
        """(ruleset id, its house rules by option) for each ruleset that has any, in the select's order."""
        out = []
        for rid in rulesets.available():
            try:
                rules = rulesets.load(rid).house_rules
            except rulesets.RulesetError:
                continue
            if rules:
                out.append((rid, dict(rules)))
        return out

    def player_names(self) -> list[str]:
        return names_of(self.players.data or "")

    def option_overrides(self) -> dict:
        """The chosen ruleset's switches turned from the file's way, as the game's header options (a house rule
        switched off set to its value without it, a variant switched on to its value with it); none when the form
        had no switches (every rule as the file plays it)."""
        if self.house_rules_shown.data != "1":
            return {}
        return option_overrides(self.ruleset.data, set(self.house_rules.data or ()),
                                dict(self.house_rule_switches()).get(self.ruleset.data, {}))


class UnlockForm(FlaskForm):
    pin = PasswordField(_l("Referee PIN"), validators=[DataRequired(), Length(max=64)])


class OrganiserForm(FlaskForm):
    password = PasswordField(_l("Organiser password"), validators=[DataRequired(), Length(max=200)])


class NewTournamentForm(FlaskForm):
    """The new-tournament form (its fields are laid out by hand in tournaments/index.html)."""

    name = StringField(_l("Name"), validators=[Optional(), plain_text(MAX_TITLE)])
    scheme = StringField(_l("Scoring"), validators=[DataRequired(), Length(max=80)])
    format = StringField(_l("Format"), validators=[Optional(), Length(max=80)])
    ruleset = StringField(_l("Ruleset"), validators=[DataRequired(), Length(max=80)])
    players = TextAreaField(_l("Players, one per line"),
                            validators=[DataRequired(), Length(max=MAX_TOURNAMENT_PLAYERS * (2 * MAX_NAME + 14)),
                                        one_name_per_line(MAX_TOURNAMENT_PLAYERS, divisions=True)])
    alternates = TextAreaField(_l("Alternates, in order, one per line"),
                               validators=[Optional(), Length(max=MAX_TOURNAMENT_PLAYERS * (MAX_NAME + 2)),
                                           one_name_per_line(MAX_TOURNAMENT_PLAYERS)])
    check_in = StringField(validators=[Optional(), Length(max=1)])
    round_minutes = StringField(_l("Minutes per round (e.g. 70 60 60)"), validators=[Optional(), Length(max=200)])
    pin = PasswordField(_l("Director PIN"), validators=[DataRequired(), Length(min=PIN_MIN, max=64)])
    # the regulations: a field for each (regulation_field), read by typed_regulations

    def minutes(self) -> list[int]:
        """Minutes per round; ValueError unless each is a whole number from 1 to 600 (each read only when it is at
        most three digits)."""
        typed = (self.round_minutes.data or "").replace(",", " ").split()
        if len(typed) > 20:
            raise ValueError(typed[:20])
        try:
            return [whole_number("round_minutes", m, 1, MAX_MINUTES) for m in typed]
        except NotWhole:
            raise ValueError(typed[:20]) from None


REGULATION_FIELD = "regulation-"  # the new-tournament form's field of a regulation: regulation-OPTION
TYPED_REGULATION = 200  # the characters of a regulation's field read (a refusal repeats what was typed, cut)


def regulation_field(option: str) -> str:
    """The new-tournament form's field of the regulation that sets ``option``."""
    return REGULATION_FIELD + option


def typed_regulations(form) -> dict[str, str]:
    """The regulations typed on the new-tournament form: option -> text, from every field named regulation-OPTION
    (a forged option's too: the tournament's check refuses it by its name), each text cut to
    :data:`TYPED_REGULATION` characters."""
    return {key.removeprefix(REGULATION_FIELD)[:TYPED_REGULATION]: value[:TYPED_REGULATION]
            for key, value in form.items() if key.startswith(REGULATION_FIELD)}


class ImportForm(FlaskForm):
    record = FileField(_l("Game record (.jsonl)"), validators=[FileRequired()])
    pin = PasswordField(_l("Referee PIN for the imported game"), validators=[DataRequired(), Length(min=PIN_MIN, max=64)])


class TableRecordForm(FlaskForm):
    """A table's record file, saved on a tablet, whose entries after the table's own the director records."""

    record = FileField(_l("Game record (.jsonl)"), validators=[FileRequired()])


def entry_key(form) -> str | None:
    """The key of the screen the form was on (``entry_key``, made when it was drawn), or None for a form without
    one (or an empty one); ValueError when it is not a key the app makes."""
    key = form.get("entry_key")
    if not key:
        return None
    if not KEY.fullmatch(key[:100]):
        raise ValueError("not a key the table screen makes")
    return key


LATEST_TAP = 9_999_999_999  # a tap's time, in seconds since 1970: the most digits a JSON number here may have


def kept_run(body: bytes) -> KeptRun:
    """The taps a tablet kept, as its script sends them (``{"taps": [{"key", "entry", "after"}, ...]}``, JSON, and
    after a conflict ``"choice"`` and ``"seen"``): ValueError (or RecursionError) naming what is not of that
    shape, a refusal when a number is not a whole number an entry may carry or a run is longer than a tablet
    sends."""
    data = json.loads(body.decode("utf-8"), parse_int=json_whole)
    taps = data.get("taps") if isinstance(data, dict) else None
    if not isinstance(taps, list):
        raise ValueError('not {"taps": [...]}')
    if len(taps) > MAX_TAPS:
        raise ValueError(f"a run of {len(taps)} taps: a tablet sends at most {MAX_TAPS} at once")
    kept = []
    for n, tap in enumerate(taps):
        if not isinstance(tap, dict) or not {"key", "entry", "after"} <= set(tap) <= {"key", "entry", "after", "at"} \
                or not isinstance(tap["entry"], dict):
            raise ValueError(f"tap {n}: not {{key, entry, after[, at]}} with an entry object")
        if not isinstance(tap["key"], str) or not KEY.fullmatch(tap["key"][:100]):
            raise ValueError(f"tap {n}: not a key the table screen makes")
        at = whole_number(f"taps[{n}].at", tap["at"], 0, LATEST_TAP, text=False) if "at" in tap else None
        kept.append(KeptTap(tap["key"], tap["entry"], whole_number(f"taps[{n}].after", tap["after"], 0, LARGEST,
                                                                   text=False), at))
    choice = data.get("choice")
    if choice is None:
        return KeptRun(kept)
    if choice not in CHOICES:
        raise ValueError(f"choice: one of {', '.join(CHOICES)}")
    return KeptRun(kept, choice, whole_number("seen", data.get("seen"), 0, LARGEST, text=False))
