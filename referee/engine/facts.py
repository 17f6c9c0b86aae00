"""Facts derived from a state: rents, interest, assets, what a player can raise, who moves next, and the jail exit
JMA's bankruptcy clauses turn on.

Plain functions of a :class:`~.state.GameState` that refuse nothing and change nothing: the rules, the words
and the tablet's screens all read them.
"""
from __future__ import annotations

from .ruleset import Ruleset
from .state import Auction, BuildingAuction, Debt, GameState, JailFine


def interest(state: GameState, amount: int) -> int:
    """Mortgage interest on ``amount``, rounded as the ruleset says."""
    return state.ruleset.options.interest(amount)


def unmortgage_cost(state: GameState, square: int) -> int:
    """The mortgage value plus interest; only the value when the interest was just paid on receiving the deed
    (official rules: "the new owner must immediately pay 10% interest on the mortgage and at their option may
    pay the principal")."""
    if square in state.interest_paid:
        return state.ruleset.squares[square].mortgage
    return state.ruleset.lift_costs[square]  # the value and its interest


def total_assets(state: GameState, player: int) -> int:
    """Cash, printed price of every deed (mortgaged or not) and the cost of every building.

    The income-tax percentage is taken of this (元ルール「所得税」: 手持ちの現金、権利書の価格、
    所有するすべての建物の価格を合計したもの; Hasbro: "whether mortgaged or unmortgaged").
    """
    return state.players[player].cash + state.holdings_value[player]


def tax_amount(ruleset: Ruleset, square: int) -> int:
    """What landing on a tax square charges (income tax: its flat amount): the amount printed on the board, or for
    the Luxury Tax the ruleset's ``luxury_tax_amount`` where it sets one.  Official rules, General: "If the
    player lands on Luxury Tax/Super Tax, he or she must pay the Bank ₩100 (in some editions of the game, only
    ₩75)"; JMA 補足ルール「所得税と物品税」: 物品税のマスは、ボードに印刷されている$75を銀行に支払います。"""
    sq = ruleset.squares[square]
    fixed = ruleset.options.luxury_tax_amount
    return fixed if sq.tax == "luxury" and fixed else sq.amount


def raisable_cash(state: GameState, player: int) -> int:
    """Cash the player could have by selling every building at half price and mortgaging every deed."""
    total = state.players[player].cash
    for sq in state.deeds_of(player):
        square = state.ruleset.squares[sq]
        total += state.buildings[sq] * square.house_cost // 2
        if not state.mortgaged[sq]:
            total += square.mortgage
    return total


def owns_whole_group(state: GameState, player: int, square: int) -> bool:
    group = state.ruleset.squares[square].group
    assert group is not None  # a deed's: every deed is of a group
    if state.group_owner[group] != player:
        return False
    return not (state.ruleset.options.mortgaged_lot_breaks_monopoly_doubling and state.group_mortgaged[group])


def _owned_of_kind(state: GameState, owner: int, kind: str) -> int:
    count_mortgaged = state.ruleset.options.mortgaged_deeds_count_for_rent
    return sum(1 for sq in state.ruleset.squares_of_kind[kind]
               if state.owner[sq] == owner and (count_mortgaged or not state.mortgaged[sq]))


def rent(state: GameState, square: int, dice_total: int, multiplier: int = 1) -> int:
    """The rent for landing on an owned, unmortgaged deed.

    Streets: the rent table by buildings; unimproved, doubled when the owner
    holds the whole colour group.  Railroads: by how many the owner holds.
    Utilities: the dice times 4 or 10, by how many the owner holds.
    ``multiplier`` is a card's (twice the railroad rent).
    """
    sq = state.ruleset.squares[square]
    owner = state.owner[square]
    assert owner is not None  # an owned deed's rent
    if sq.kind == "street":
        level = state.buildings[square]
        if level == state.hotel_level:
            return sq.rent[5]
        if level:
            return sq.rent[level]
        base = sq.rent[0]
        if owns_whole_group(state, owner, square):
            base *= state.ruleset.options.monopoly_rent_multiplier
        return base
    count = _owned_of_kind(state, owner, sq.kind)
    if sq.kind == "railroad":
        return sq.rent[count - 1] * multiplier
    return sq.dice_multipliers[count - 1] * dice_total


def minimum_bid(state: GameState, auction: Auction | BuildingAuction) -> int:
    opts = state.ruleset.options
    step = opts.auction_bid_step
    return max(opts.auction_min_bid, (auction.high_bid // step + 1) * step)


def next_to_move(state: GameState) -> int:
    """The player whose turn comes next (次の手番のプレーヤー): between turns, the player about to roll;
    during a turn (doubles included), the player after the one whose turn it is."""
    if not state.turn_started and state.doubles == 0 and not state.players[state.current].bankrupt:
        return state.current
    return state.next_player(state.current)


def tie_winner(state: GameState, bidders: list[int]) -> int:
    """JMA 補足ルール「競売」: 同時に同額のコールがあった場合は、次の手番のプレーヤーから右周りに近いプレーヤーの
    コールを優先します。Equal calls at once go to the caller nearest in turn order, counting from the player
    whose turn comes next (:func:`next_to_move`)."""
    start = next_to_move(state)
    n = len(state.players)
    return min(bidders, key=lambda b: (b - start) % n)



def landing_rent(state: GameState, player: int, steps: int) -> tuple[int, int]:
    """The square ``steps`` ahead of the player and the rent due there to another player by those dice (0 if
    none)."""
    to = (state.players[player].position + steps) % len(state.ruleset.squares)
    owner = state.owner[to]
    if owner is None or owner == player or state.mortgaged[to] or state.players[owner].bankrupt:
        return to, 0
    return to, rent(state, to, steps)


def _jail_exit_fine(state: GameState) -> tuple[Debt, int] | None:
    """While the fine of the third failed jail roll is the pending debt: that debt and the roll's total (the move
    that follows it).  None at any other time."""
    p = state.pending
    if not isinstance(p, Debt) or p.reason != "bail" or not state.resume or state.resume[0] != "jail_exit":
        return None
    return p, state.resume[3]


def jail_exit_landing(state: GameState) -> tuple[int, int] | None:
    """While the fine of the third failed jail roll is the pending debt: the square that roll leads to and its
    rent to another player by those dice (0 if none is due there).  None at any other time."""
    fine = _jail_exit_fine(state)
    return None if fine is None else landing_rent(state, fine[0].debtor, fine[1])


def fine_and_rent_short(state: GameState, player: int, steps: int, fine: int) -> bool:
    """JMA 補足ルール「破産」: 刑務所から3回目にゾロ目が出ず、その出所料と出た目で行くべきマスのレンタル料の両方で
    仮破産となる場合: whether the fine of the third failed roll (``fine``) and the rent of the square that roll
    (``steps``) leads to are together more than the player can raise, where the ruleset makes the two one
    provisional bankruptcy (option ``jail_exit_bankruptcy``).  It may be so even when the player's cash alone pays
    the fine: the clause judges both debts together."""
    if state.ruleset.options.jail_exit_bankruptcy != "fine_and_rent_ahead":
        return False
    _, rent_due = landing_rent(state, player, steps)
    return rent_due > 0 and raisable_cash(state, player) < fine + rent_due


def jail_exit_short(state: GameState) -> bool:
    """JMA 補足ルール「破産」: while the fine of the third failed roll is the pending debt, whether it and the rent
    ahead together are more than the player can raise (:func:`fine_and_rent_short`: a provisional bankruptcy even
    if the fine alone is not)."""
    fine = _jail_exit_fine(state)
    return fine is not None and fine_and_rent_short(state, fine[0].debtor, fine[1], fine[0].amount)


def jail_exit_rent_ahead(state: GameState) -> int:
    """JMA 補足ルール「破産」: その出所料と出た目で行くべきマスのレンタル料の両方で仮破産となる場合: while the fine of
    the third failed roll and the rent ahead are one provisional bankruptcy (:func:`jail_exit_short`), that rent,
    owed with the fine; 0 at any other time."""
    if not jail_exit_short(state):
        return 0
    landing = jail_exit_landing(state)
    assert landing is not None  # short of both only while the fine is the pending debt
    return landing[1]


def jail_exit_creditor(state: GameState) -> int | None:
    """The owner of the square a player would move to after the third failed jail roll, while the fine is
    unpaid: under JMA they may take the bankruptcy over, fine included."""
    landing = jail_exit_landing(state)
    if state.ruleset.options.jail_exit_bankruptcy != "fine_and_rent_ahead" or landing is None or not landing[1]:
        return None
    return state.owner[landing[0]]



def card_first(state: GameState) -> bool:
    """JMA 補足ルール「破産」: 刑務所から3回目にゾロ目が出ず、その出所料と出た目で行くべきマスのレンタル料の両方で
    仮破産となる場合 … 自分の資産で出所料の負債を支払える場合は、その処理をして(カード使用を優先)進んだマス目での
    破産となります。After the third failed roll, when the fine and the rent ahead together are more than the player
    can raise, a get-out-of-jail card in hand settles the fine: the cash stays for the creditor ahead."""
    p = state.pending
    if not isinstance(p, JailFine) or not state.players[p.player].jail_cards:
        return False
    return fine_and_rent_short(state, p.player, sum(p.dice), state.ruleset.money.bail)


def card_for_sale(state: GameState, player: int) -> bool:
    """JMA 補足ルール「刑務所」: またこの際に釈放カードを所有していなければ、出所する前に他者から釈放カードを入手する
    交渉を行うことができます。Whether, after the third failed roll, the player could buy a card: the ruleset allows
    it and another player in the game holds one."""
    if not state.ruleset.options.jail_card_purchase_before_fine:
        return False
    return any(p.jail_cards for i, p in enumerate(state.players) if i != player and not p.bankrupt)


def sits_out(state: GameState, player: int) -> bool:
    """German variant, Polizist: Dort setzt er 3 Runden lang aus, d.h. er unternimmt sonst nichts, wenn er an
    die Reihe kommt (option ``jail_mode`` sit_out, ``jail_max_rolls`` turns)."""
    return state.ruleset.options.jail_mode == "sit_out" and state.players[player].in_jail


def ending_bankruptcy(state: GameState, more: int = 1) -> bool:
    """Whether the game ends at this many more bankruptcies (option ``end_after_bankruptcies``; 0: it ends when one
    player is left).  Classic rules (seed 003), shortened game: When the second player becomes bankrupt, the game
    ends."""
    most = state.ruleset.options.end_after_bankruptcies
    return bool(most) and sum(1 for p in state.players if p.bankrupt) + more >= most
