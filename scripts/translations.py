"""Update the catalogues (Japanese, Korean, German) from the sources: scripts/translations.py (after pybabel extract).

    .venv/bin/pybabel extract -F babel.cfg -k _ -k gettext -k _l -k lazy_gettext \
        -k illegal:3 -k refuse:2 -k _malformed:2 -k of:1 -o /tmp/messages.pot .
    .venv/bin/python scripts/translations.py /tmp/messages.pot

The keywords after lazy_gettext take the engine's refusals: the English pattern is the 3rd argument of
``illegal(state, code, pattern, clause, **params)``, the 2nd of ``step.refuse(code, pattern, clause, **params)``
and of ``_malformed(code, pattern, **params)``, the 1st of ``RefereeError.of(pattern, params)`` (see
referee/engine/phrases.py; tests/test_refusal_words.py checks that every pattern is extracted and translated).

Keeps every existing translation, adds the new ones from NEW below (Japanese) and NEW_KO and NEW_DE (Korean and
German), lists what is still missing, and writes each language's messages.po and the compiled messages.mo that the
app reads.
"""
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

TRANSLATIONS = Path(__file__).resolve().parent.parent / "referee" / "translations"
LANGUAGES = ("ja", "ko", "de")
NEW = {
    # --- house rules (issue 14) ---
    'House rules': 'ハウスルール',
    'salary for landing on GO': 'GOにちょうど止まったサラリー',
    'no rent: %(owner)s, who owns %(square)s, is in jail': 'レンタル料なし：%(square)sの持ち主%(owner)sは刑務所にいます',
    '%(player)s %(squares)s': '%(player)s：%(squares)s',
    "%(player)s's deeds are shared out, each in turn to whoever has received least and none completing a group: %(shares)s": '%(player)sの権利書を分配します（1枚ずつ、受け取った額が最も少ない人へ。グループがそろう人には渡しません）：%(shares)s',
    'a second': '2回目',
    'a third': '3回目',
    'a fourth': '4回目',
    'a fifth': '5回目',
    'a sixth': '6回目',
    'a seventh': '7回目',
    'an eighth': '8回目',
    'a ninth': '9回目',
    'a tenth': '10回目',
    'No rent is collected by an owner who is in jail.': '刑務所にいる持ち主はレンタル料を受け取りません。',
    'The creditor takes the cash; the deeds are shared among the players left.': '現金は債権者が受け取り、権利書は残ったプレーヤーで分けます。',
    'Landing exactly on GO pays %(amount)s.': 'GOにちょうど止まると%(amount)sを受け取ります。',
    'The %(amount)s goes into the Free Parking pot (%(pot)s now).': '%(amount)sは無料駐車場のプールに入ります（現在%(pot)s）。',
    'Payments that go into the Free Parking pot': '無料駐車場のプールに入る支払い',
    'More salary for landing exactly on GO': 'GOにちょうど止まったときの割増サラリー',
    "A bankrupt's deeds, when the creditor is a player": '債権者がプレーヤーの破産での権利書',
    'a pot collects there for the player who lands': 'お金がたまり、止まったプレーヤーが受け取る',
    'taxes': '税金',
    'jail fines': '刑務所の罰金',
    'payments by card': 'カードによる支払い',
    'all to the creditor': 'すべて債権者へ',
    'cash and cards to the creditor, the deeds shared evenly among the players left': '現金とカードは債権者へ、権利書は残ったプレーヤーで均等に分ける',
    'in the turn of one of the two players': '取引する2人のどちらかの手番中',
    "a trade is made in the turn of one of its players, and it is {player}'s turn": '取引は当事者のどちらかの手番中に行います。いまは{player}の手番です',
    'there is no ruleset %(id)s': 'ルールセット%(id)sはありません',
    'House rules of %(ruleset)s (each can be switched off for this game)': '%(ruleset)sのハウスルール（このゲームではそれぞれ外せます）',
    'rule': 'ルール',
    'House rule “%(name)s”: switched off for this game. The rule played:': 'ハウスルール「%(name)s」：このゲームでは採用しません。適用するルール：',
    'House rule “%(name)s”: played.': 'ハウスルール「%(name)s」：採用。',
    'Bankruptcies that end the game': 'ゲームが終わる破産の数',
    'Buildings of the bankrupt player whose bankruptcy ends the game': 'ゲームを終わらせる破産での建物',
    'half of four house prices': '家4軒分の価格の半額',
    'the game ends at once': 'その時点でゲーム終了',
    'sold back to the bank at half price': '半額で銀行に売却',
    'passed whole to the creditor': 'そのまま債権者へ',
    'none: play goes on until one player is left': 'なし：1人が残るまで続ける',
    '(ended at bankruptcy number %(n)s)': '（%(n)s人目の破産で終了）',
    'chooses': '選択',
    '{player} chooses to pay or to draw, not {choice}': '{player}が選べるのは支払うか引くかで、{choice}ではありません',
    '{field} must be pay or draw, got {value}': '{field}はpayかdrawでなければなりません（入力：{value}）',
    'the choice of a fine or a card': '罰金かカードかの選択',
    'waiting for {player} to pay {amount} or draw a {deck} card': '{player}が{amount}を払うか{deck}のカードを引くのを待っています',
    'Draw a %(deck)s card': '%(deck)sのカードを引く',
    '{player} won a {kind} and must place it: this sale leaves no lot where it could go': '{player}は{kind}を落札したので置かなければなりません：この売却では置ける土地がなくなります',
    'back: rent not claimed in time': '（請求されなかったレンタル料の返却）',
    'rent not claimed in time by its owner, paid by': '持ち主が期限内に請求しなかったレンタル料：支払った人',
    'Turns an owner has to claim rent': 'レンタル料を請求できる期限（手番）',
    'no limit: a claim traced back is paid': '期限なし：遡れる請求は支払われる',
    'until the turn of the player %(n)s after the payer begins': '支払った人の%(n)s人後のプレーヤーの番が始まるまで',
    'a rent not claimed in time': '期限内に請求されなかったレンタル料',
    'the rent {player} paid on {square} stands: a claim that can be traced back is paid': '{player}が{square}で払ったレンタル料は有効です：遡れる請求は支払われます',
    "no rent {player} paid on {square} lapses now: an owner's claim lapses when the turn of the player {n} after the payer begins, and is recorded then": '{player}が{square}で払ったレンタル料で、いま請求期限が切れるものはありません：持ち主の請求期限は支払った人の{n}人後のプレーヤーの番が始まる時に切れ、その時に記録します',
    'Rent not claimed: %(amount)s on %(square)s': 'レンタル料の請求なし：%(square)sの%(amount)s',
    '%(owner)s did not ask %(player)s for the %(amount)s rent on %(square)s before this turn began: the claim has lapsed and the rent goes back.': '%(owner)sはこの番が始まるまでに%(player)sに%(square)sのレンタル料%(amount)sを請求しませんでした：請求期限が切れたので、レンタル料は返されます。',
    'Yes: %(amount)s back to %(player)s': 'はい：%(amount)sを%(player)sに返す',
    'for the deed sold back': '（売り戻した権利書の代金）',
    'builds one house on landing': '止まって家を1軒建てる',
    'sells the deed back to the bank': '権利書を銀行に売り戻す',
    'leaves the deed as it is': '権利書をそのままにする',
    'A payment the cash does not cover': '手持ちの現金で払えない支払い',
    "The bank's money": '銀行のお金',
    "Landing on one's own deed": '自分の土地に止まったとき',
    'never': '不可',
    'by doubles, the fine or a card': 'ゾロ目・罰金・カードで',
    'after turns sat out': '番を休んだ後',
    'a debt: raise it or go bankrupt': '負債：お金を作るか破産',
    'all the cash is paid, and the player is out': '現金をすべて払い、そのプレイヤーは脱落',
    'build one house, or sell it back to the bank': '家を1軒建てるか、銀行に売り戻す',
    'no limit': '上限なし',
    '(the bank ran out of money)': '（銀行のお金が尽きて終了）',
    'buildings go back to the bank only with their street, sold on landing there': '建物は、止まったときにその通りごと売る場合にだけ銀行に戻せます',
    'these rules have no mortgages': 'このルールには抵当はありません',
    '{square} takes no more buildings': '{square}にはこれ以上建てられません',
    '{player} has {cash}; a house on {square} costs {price}': '{player}の所持金は{cash}です。{square}の家は{price}です',
    'the bank has no building left for {square}': '銀行には{square}に建てる建物が残っていません',
    'a house built on landing': '止まって建てる家',
    'a deed sold back to the bank': '銀行への権利書の売り戻し',
    "leaving one's own deed as it is": '自分の土地をそのままにすること',
    '{player} is on {square}, their own: build, sell it back, or leave it': '{player}は自分の{square}にいます：建てる、売り戻す、またはそのまま',
    "a house is built on a street of one's own when landing there, one at a time": '家は自分の通りに止まったときに1軒ずつ建てます',
    'these rules have no trades between players': 'このルールにはプレイヤー間の取引はありません',
    'Build for %(price)s: %(square)s then has %(what)s': '%(price)sで建てる：%(square)sは%(what)sになる',
    'Sell %(square)s to the bank for %(price)s': '%(square)sを%(price)sで銀行に売る',
    'Leave it as it is': 'そのままにする',
    'How a player leaves jail': '刑務所から出る方法',
    '(all of it)': '（全額）',
    'Free Parking pays out the whole pot.': '無料駐車場では積立金を全額受け取ります。',
    'to pay the fine': '罰金を払う',
    'to draw a card from the other deck': 'もう一方の山からカードを引く',
    'Call time: the game ends now and is ranked by assets; an auction or building in progress is void. This cannot be taken back except by voiding it.': '終了の合図をします：ゲームはその時点で終わり、資産で順位が決まります。進行中の競売や建設は無効です。取り消すには記録の取り消しが必要です。',
    'Call time: negotiations, auctions and building in progress stop; play goes on until every player has had as many turns, then the game is ranked. This cannot be taken back except by voiding it.': '終了の合図をします：進行中の交渉・競売・建設は止まり、全員の手番の数がそろうまで続けてから順位が決まります。取り消すには記録の取り消しが必要です。',
    '— the game then ends at once and is ranked.': '— ゲームはその時点で終わり、順位が決まります。',
    '— then play goes on until every player has had as many turns, and the game is ranked.': '— その後、全員の手番の数がそろうまで続け、順位が決まります。',
    'pot: %(amount)s': '積立：%(amount)s',
    'The bank holds %(amount)s.': '銀行の残高：%(amount)s',
    'House rules switched off: %(rules)s': '採用しないハウスルール：%(rules)s',
    'Free Parking pot: %(amount)s': '無料駐車場の積立金：%(amount)s',
    '%(player)s has no money left and is out of the game; the deeds go back to the bank': '%(player)sはお金がなくなり脱落します。権利書は銀行に戻ります',
    '%(player)s sits out a turn in jail (%(n)s of %(max)s)': '%(player)sは刑務所で番を休みます（%(max)s回中%(n)s回目）',
    '%(player)s has sat out the last turn in jail and rolls from the jail square next time': '%(player)sは刑務所で最後の番を休み終え、次の番に刑務所のマスから進みます',
    '%(player)s owns every street of this colour: a house costs half, %(price)s.': '%(player)sはこの色の通りをすべて持っています：家は半額の%(price)sです。',
    "On a street of one's own: one house at its price, or the street sold back to the bank.": '自分の通りでは：家を1軒その価格で建てるか、通りを銀行に売り戻します。',
    'A payment the cash does not cover takes all of it, and a player with no money left is out.': '現金で払いきれない支払いは現金をすべて取り、お金がなくなったプレイヤーは脱落します。',
    'In jail a player sits out %(n)s turns, then moves on from the jail square.': '刑務所では%(n)s回番を休み、その後刑務所のマスから進みます。',
    'The bank has no money left: it paid what it had, and the game ends after this round.': '銀行のお金がなくなりました：あった分だけを払い、ゲームはこの周回の後に終わります。',
    '%(player)s declines %(square)s: it stays with the bank': '%(player)sは%(square)sを買いません：銀行に残ります',
    'Decline: it stays with the bank': '買わない：銀行に残る',
    'in jail (%(n)s of %(max)s turns sat out)': '刑務所（%(max)s回中%(n)s回休み）',
    'Trades by a player in jail': '刑務所にいるプレイヤーの取引',
    '{player} is in jail and may not buy or sell properties': '{player}は刑務所にいるので土地の売買はできません',
    "Skipping a turn instead of the jail fine": "罰金の代わりの1回休み",
    "Skip this turn instead of the fine (out of jail next turn)": "罰金の代わりにこの手番を休む（次の手番で出所）",
    "Skip a turn instead: stay on the jail square, out of jail": "代わりに1回休む：刑務所のマスにとどまり、出所",
    "%(player)s skips this turn instead of the fine and is out of jail": "%(player)sは罰金の代わりにこの手番を休み、刑務所から出ます",
    "skips a turn instead of the jail fine": "罰金の代わりに1回休む",
    "skipping a turn instead of the jail fine": "罰金の代わりの1回休み",
    "skipping a turn instead of the fine is not a rule of this game": "罰金の代わりに1回休むことは、このゲームのルールにはありません",
    "Rules of %(ruleset)s you may switch on or off for this game": "このゲームでオン・オフを選べる%(ruleset)sのルール",
    "Variant “%(name)s”: switched on for this game. The rule played:": "変則ルール「%(name)s」：このゲームではオン。適用されるルール：",
    "Variant “%(name)s”: not played (the new-game screen can switch it on).": "変則ルール「%(name)s」：適用しません（新しいゲームの画面でオンにできます）。",
    "Variants switched on: %(rules)s": "オンにした変則ルール：%(rules)s",
    "third failed roll: waiting for {player} to pay the fine and move, or skip a turn": "3回目もゾロ目なし：{player}が罰金を払って進むか、1回休むか待ち",
    "Third failed roll: instead of paying the %(fine)s fine and moving, %(player)s may skip this turn, staying on the jail square, out of jail.": "3回目もゾロ目が出ませんでした：%(player)sは%(fine)sの罰金を払って進む代わりに、この手番を休み、刑務所のマスに（出所して）とどまることができます。",
    "Format": "形式",
    "%(n)s rounds": "%(n)s回戦",
    "1 round": "1回戦",
    "as many rounds as the director seats": "回戦数は大会責任者が決める",
    "every player still in": "残っている全員",
    "the best %(n)s of the stage before": "前の段階の上位%(n)s人",
    "the winner of each table of the stage before": "前の段階の各卓の1位",
    "tables drawn for the fewest repeat opponents (of 4, of 5 where the numbers do not divide)": "同じ相手との再戦が最も少なくなる抽選で卓を決める（4人卓、割り切れないときは5人卓）",
    "tables seeded snake-wise from the standings": "順位表から蛇行式（スネーク）で卓に振り分ける",
    "ranked boards: the best on board 1, the next on board 2…": "順位別の卓：上位から第1卓、次が第2卓…",
    "ranked by this stage's games alone": "この段階のゲームだけで順位を決める",
    "ranked by every game so far": "これまでの全ゲームで順位を決める",
    "places go board by board: the champion comes from board 1": "順位は卓の順：優勝者は第1卓から",
    "%(n)s minutes a round": "1回戦%(n)s分",
    "%(stage)s: %(how)s": "%(stage)s：%(how)s",
    "The format's stages": "形式の段階",
    "%(stage)s, round %(k)s of %(n)s": "%(stage)s　%(n)s回戦中%(k)s回戦目",
    "%(stage)s, round %(k)s": "%(stage)s　%(k)s回戦目",
    "Champion: %(player)s": "優勝：%(player)s",
    "Every round of the format is played; the places below are final.": "形式のすべての回戦が終わりました。下の順位が最終順位です。",
    "The last round is seated": "最後の回戦の卓が決まりました",
    "The champion is known when its games are over.": "そのゲームが終われば優勝者が決まります。",
    "stage reached": "到達した段階",
    "every round of the format {format} is seated: the tournament is over": "形式{format}のすべての回戦の卓が決まっています：大会は終わりです",
    "the next round cannot be of the stage {stage} (it may be of {stages})": "次の回戦は段階{stage}にはできません（可能なのは{stages}）",
    "the stage {stage} has {n} players: a round needs at least 2": "段階{stage}のプレーヤーは{n}人です：回戦には2人以上が必要です",
    "Alternates, in order, one per line": "補欠（順番どおり、1行に1人）",
    "no player {name} in this tournament": "この大会に{name}というプレーヤーはいません",
    "round {round} has been seated since this screen was drawn: nothing was changed": "この画面の表示後に{round}回戦の卓割りが行われました：変更はされていません",
    "{name} is not on the list of players to seat: check-in is for them only": "{name}は卓割りの対象プレーヤーではありません：受付は対象プレーヤーのみです",
    "{name} is checked in: seated from round {round}": "{name}の受付が完了しました：{round}回戦から卓割りに入ります",
    "{name} is not checked in: not seated until checked in": "{name}は未受付です：受付するまで卓割りに入りません",
    "{name} has already dropped": "{name}はすでに棄権しています",
    "{name} is an alternate: taken off the list by dropping is not needed; they are never seated unless they step in": "{name}は補欠です：棄権で名簿から外す必要はありません。補欠は出場しない限り卓割りに入りません",
    "{name} has dropped: not seated from round {round} (their results stand)": "{name}が棄権しました：{round}回戦から卓割りに入りません（これまでの成績は有効です）",
    "no alternate is waiting to step in for {name}": "{name}の代わりに出場できる補欠がいません",
    "{name} has dropped; {alternate} steps in for them from round {round}": "{name}が棄権しました。{round}回戦から補欠の{alternate}が代わりに出場します",
    "{name} has not dropped": "{name}は棄権していません",
    "{name} dropped before a round that has been seated since: they may enter again as a late entry only": "{name}の棄権後にすでに卓割りが行われた回戦があります：再参加は途中参加としてのみ可能です",
    "{name} is back: seated from round {round}": "{name}が復帰しました：{round}回戦から卓割りに入ります",
    "{name} is not an alternate waiting to step in": "{name}は出場待ちの補欠ではありません",
    "{name} steps in: seated from round {round}": "{name}が補欠から出場します：{round}回戦から卓割りに入ります",
    "unknown change to a player: {action}": "プレーヤーに対する不明な変更：{action}",
    "a player needs a name": "プレーヤー名を入力してください",
    "{name} is already in this tournament": "{name}はすでにこの大会に登録されています",
    "{name} is alternate {n}": "{name}は補欠{n}番です",
    "{name} enters late: seated from round {round}": "{name}が途中参加します：{round}回戦から卓割りに入ります",
    "the form names no round: nothing was changed": "フォームに回戦の指定がありません：変更はされていません",
    "Players between rounds": "回戦間のプレーヤー管理",
    "%(n)s to seat": "卓割り対象%(n)s人",
    "%(n)s not checked in": "未受付%(n)s人",
    "%(n)s alternates": "補欠%(n)s人",
    "%(n)s dropped": "棄権%(n)s人",
    "Changes here take effect from round %(n)s: a game in progress is always finished.": "ここでの変更は%(n)s回戦から反映されます：進行中のゲームは必ず最後まで行われます。",
    "alternate %(n)s": "補欠%(n)s番",
    "dropped after round %(n)s": "%(n)s回戦後に棄権",
    "dropped before round 1": "1回戦前に棄権",
    "not checked in": "未受付",
    "stepped in for %(player)s from round %(n)s": "%(n)s回戦から%(player)sの代わりに出場",
    "from round %(n)s": "%(n)s回戦から",
    "Check in": "受付",
    "Not here": "不在",
    "Drop": "棄権",
    "Drop: %(alternate)s steps in": "棄権：%(alternate)sが出場",
    "Step in": "出場",
    "Undo the drop": "棄権取消",
    "Late entry (from round %(n)s)": "途中参加（%(n)s回戦から）",
    "Add as an alternate": "補欠として追加",
    "players check in at the venue: only those checked in are seated": "プレーヤーは会場で受付します：受付済みのプレーヤーのみ卓割りに入ります",
    "Minutes per round (e.g. 70 60 60; empty: the format's own, if it has one)": "回戦ごとの時間（分）（例：70 60 60、空欄：形式に既定値があればそれを使用）",
    "game {game} is not a table of this tournament": "ゲーム{game}はこの大会の卓ではありません",
    "this table's result was corrected since this screen was drawn: nothing was changed": "この画面を表示した後に、この卓の結果が訂正されました：何も変更していません",
    "table {table} is still playing: a result is corrected after its game": "第{table}卓はまだ対戦中です：結果の訂正はゲームの後に行います",
    "a correction gives a place and assets for each player of the table, and no one else": "訂正では、その卓の各プレーヤーに順位と資産を入れます（他の人は入れません）",
    "{name}'s place must be from 1 to {n}": "{name}の順位は1から{n}までです",
    "{name}'s assets must be a whole amount from 0 to {max}": "{name}の資産は0から{max}までの整数です",
    "the places do not make a ranking: {name} is {place}, with {ahead} ahead": "順位になっていません：{name}が{place}位で、上に{ahead}人います",
    "a correction needs its reason, for the record": "訂正には記録のための理由が必要です",
    "a monopoly win has one winner": "モノポリー勝ちの勝者は1人です",
    "round {round}, table {table}: result corrected ({reason}); the standings follow it": "{round}回戦 第{table}卓：結果を訂正しました（{reason}）。順位表はこれに従います",
    "Corrections by the director": "大会責任者による訂正",
    "Round %(r)s, table %(t)s": "%(r)s回戦 第%(t)s卓",
    "every game of this round is over": "この回戦のゲームはすべて終わりました",
    "the round's clock has not started": "この回戦の時計はまだ始まっていません",
    "The first round is not seated yet": "1回戦の卓はまだ決まっていません",
    "correct": "訂正",
    "Result corrected: %(reason)s": "結果を訂正：%(reason)s",
    "Correct a result": "結果の訂正",
    "Back to the director's page": "大会進行の画面に戻る",
    "the game's own result": "ゲーム自体の結果",
    "This table is still playing: a result is corrected after its game.": "この卓はまだ対戦中です。結果の訂正はゲームの後に行います。",
    "The game's record is not changed: the correction is kept beside it, with its reason, and the standings follow the last correction.": "ゲームの記録は変わりません。訂正は理由とともに記録の横に保存され、順位表は最後の訂正に従います。",
    "place": "順位",
    "a monopoly win (every other player bankrupt)": "モノポリー勝ち（他の全員が破産）",
    "Reason (kept and shown with the standings)": "理由（保存され、順位表とともに表示されます）",
    "Correct the result": "結果を訂正する",
    "Corrections of this table": "この卓の訂正",
    "room display": "会場表示",
    "after time is called, play on until every player has had as many turns (the round ends when the first player's turn comes round again)": "終了の合図の後は、全員が同じ手番数になるまで続ける（最初のプレーヤーの番が再び来たら終了）",
    "CSV": "CSV",
    "minutes by round: %(minutes)s (the last for every later round)": "各回戦の時間（分）：%(minutes)s（以降は最後の値）",
    "the format {format} has no stage that takes invited seeds": "形式{format}には招待選手が入る段階がありません",
    "no division {division} in this tournament (it has {divisions})": "この大会に部門{division}はありません（部門：{divisions}）",
    "with the seeds invited to it (a previous champion), who take places among them": "招待選手（前回優勝者など）も参加し、その人数分の枠を占める",
    "Division %(division)s": "部門：%(division)s",
    "Champion of %(division)s: %(player)s": "%(division)sの優勝：%(player)s",
    "invited to the %(stage)s": "%(stage)sに招待",
    "Division": "部門",
    "{name} can take the place of a player still in, as a late entry": "{name}は途中参加として、残っているプレーヤーの代わりにだけ入れます",
    "{name} takes the place of {player} from round {round}; {player} has dropped": "{name}が{round}回戦から{player}の代わりに入ります。{player}は棄権しました",
    "in place of": "代わりに入る相手",
    "no one (a new place)": "なし（新しい枠）",
    "(with divisions: Name | Division; a seed invited to a later stage: Name | Division | invited)": "（部門があるとき：名前 | 部門。後の段階に招待する選手：名前 | 部門 | invited）",
    "Going on to %(stage)s: %(players)s": "%(stage)sに進む人：%(players)s",
    "Equal at the cut with %(last)s after every tie-break: %(players)s. The order of the standings decided; a result corrected or a player dropped changes it before the round is seated.": "すべてのタイブレーク後も、進出ラインで%(last)sと同点：%(players)s。順位表の並び順で決まりました。卓を組む前なら、結果の訂正や棄権で変わります。",
    "each division needs at least 2 players: {divisions} has fewer": "各部門には2人以上が必要です：{divisions}は足りません",
    "alternates step in in their order: {first} comes before {name}": "補欠は順番に出場します：{name}より先に{first}です",
    "a player needs a name: {line}": "プレーヤーには名前が必要です：{line}",
    "after the name and the division only \"invited\" may follow: {line}": "名前と部門の後に書けるのは「invited」（招待）だけです：{line}",
    "the standings cannot be worked out: {problem}": "順位表を計算できません：{problem}",
    "{n} players cannot be seated at tables the scoring scores (of {sizes} players): check a player in, enter one late or let one drop, then seat the round": "{n}人では、得点方式が点を決めている人数（{sizes}人）の卓に分けられません：受付、途中参加、棄権のいずれかで人数を変えてから卓を組んでください",
    "no one to seat for {stage}: check the players in (Players between rounds) first": "{stage}で卓に着く人がいません：先にプレーヤーの受付をしてください（回戦間のプレーヤー管理）",
    "not counted in the total (best games only, or a stage before the one that ranks the player)": "合計に含めない（上位の成績のみ集計、または順位を決める段階より前の段階）",
    "Round %(n)s is being played: the next round is seated when every game of it is over.": "%(n)s回戦の対戦中です：すべてのゲームが終わったら次の回戦の卓を組みます。",
    "the format {format} needs at least {n} players (a stage takes the best {n}); {count} are entered": "形式{format}には{n}人以上が必要です（上位{n}人が進む段階があります）。登録は{count}人です",
    "Games in grey are not counted in the total (best games only, or a stage before the one that ranks the player).": "灰色のゲームは合計に含めません（上位の成績のみ集計、または順位を決める段階より前の段階）。",
    "round {round}, table {table}: result corrected ({reason}); the standings follow it, but round {later} was seated from the standings before this correction and stays as seated": "{round}回戦 第{table}卓：結果を訂正しました（{reason}）。順位表はこれに従いますが、{later}回戦はこの訂正前の順位表で卓を組んだため、そのままです",
    "alternates: %(n)s": "補欠：%(n)s人",
    "board %(n)s": "第%(n)s卓",
    # --- end house rules (issue 14) ---
    "allowed (not recorded yet)": "ルール上可能（まだ記録されていません）",
    # --- table screen (issue 11) ---
    "{player} already holds the highest bid ({amount}): a player does not outbid themselves":
        "{player} はすでに最高値（{amount}）を付けています：自分の付け値を自分で上げることはできません",
    "the game is over: its clock stays stopped": "ゲームは終了しています：時計は止まったままです",
    "time has been called: the game clock stays stopped": "タイムが宣言されています：ゲームの時計は止まったままです",
    "there is nothing to redo: only the run of entries taken back by the latest entry, a void, can be recorded again":
        "やり直すものはありません：最新の記録（取り消し）で取り消された一連の記録だけを記録し直せます",
    ("%(num)s entry recorded again", "%(num)s entries recorded again"): ("%(num)s件を記録し直しました",),
    "allowed (not recorded yet): %(entry)s": "ルール上可能（まだ記録されていません）：%(entry)s",
    "%(player)s goes bankrupt. This ends the game.": "%(player)s が破産します。これでゲームは終了します。",
    "%(player)s goes bankrupt and leaves the game.": "%(player)s が破産し、ゲームから退場します。",
    "Call time: negotiations, auctions and building in progress stop; the last roll is played and the game is ranked. This cannot be taken back except by voiding it.":
        "終了の合図をします：進行中の交渉・競売・建設は止まり、最後のロールを行って順位が決まります。取り消すには記録の取り消しが必要です。",
    "Void the latest entries…": "最新の記録を取り消す…",
    "Take back the latest entries (they stay in the record, struck through; a void can be redone):":
        "最新の記録を取り消します（記録には取り消し線付きで残り、やり直せます）：",
    ("Void entry %(first)s", "Void entries %(first)s–%(last)s"): ("記録%(first)s以降の%(num)s件を取り消す",),
    "takes back “%(words)s”": "「%(words)s」を取り消します",
    "takes back “%(words)s” and the %(n)s entries after it": "「%(words)s」とその後の%(n)s件を取り消します",
    "Void": "取り消す", "how many": "件数",
    "Tap the button above again to cancel.": "やめるときは上のボタンをもう一度押してください。",
    ("Redo the voided entry: %(words)s", "Redo the %(num)s voided entries, from: %(words)s"):
        ("取り消した%(num)s件を記録し直す（%(words)s から）",),
    "Yes: %(player)s is bankrupt": "はい：%(player)s は破産", "Yes: call time now": "はい：いま終了の合図をする",
    "dice": "サイコロ",
    "%(a)s ⇄ %(b)s": "%(a)s ⇄ %(b)s",
    "Title": "タイトル", "Players, one per line, in seat order": "プレイヤー（1行に1人、座席順）",
    "seating roll-off": "サイコロで決める", "as listed": "入力した順",
    "Time limit (minutes)": "制限時間（分）", "Referee PIN": "審判のPIN",
    "Game record (.jsonl)": "ゲームの記録（.jsonl）", "Referee PIN for the imported game": "取り込むゲームの審判のPIN",
    "Build: %(price)s": "建てる：%(price)s", "the buildings each lot ends with": "建てた後の各土地の建物",
    "Another layout, lot by lot": "土地ごとに別の配置を指定",
    "Or decline, and the auction opens with a bid:": "または購入せず、次の付け値で競売を始める：",
    "this screen's form had expired or was not made by this app: nothing was recorded; the screen is shown again, tap once more":
        "この画面のフォームは期限切れか、このアプリで作られたものではありません：何も記録されていません。画面を表示し直したので、もう一度押してください",
    "No Buy button: %(player)s has %(cash)s, less than the price of %(price)s.":
        "購入ボタンはありません：%(player)s の所持金は%(cash)sで、価格%(price)sに足りません。",
    "{field} is more than {maximum}, the largest number an entry may carry":
        "{field} が {maximum} を超えています：記録できる数の上限です",
    "A number beyond the limit": "上限を超える数",
    # --- end table screen (issue 11) ---
    # --- roles and PINs (issue 12) ---
    "creating games and tournaments needs the organiser password on this tablet":
        "ゲームや大会を作るには、このタブレットで主催者パスワードを入力してください",
    "too many wrong PINs or passwords: unlocking here is refused for up to %(n)s minutes, right PIN or wrong; the director can still open a table from the director's page":
        "PINまたはパスワードの誤りが多すぎます：最長%(n)s分間、ここでのロック解除は（正しいPINでも）受け付けません。大会進行は大会進行画面から卓を開けます",
    "Organiser password": "主催者パスワード",
    "the PIN must have at least {n} characters": "PINは{n}文字以上にしてください",
    "round {round} is already seated (this screen was out of date): nothing was seated":
        "第{round}回戦はすでに組み合わせ済みです（この画面が古くなっていました）：何も組んでいません",
    "this tablet is locked: a PIN is needed to record again": "このタブレットをロックしました：記録するには再びPINが必要です",
    "wrong organiser password": "主催者パスワードが違います",
    "wrong PIN: only the referee of this table may record": "PINが違います：この卓の審判だけが記録できます",
    "the form names no round to seat: nothing was seated": "組み合わせる回戦がフォームにありません：何も組んでいません",
    "round %(n)s seated: each table has its own PIN (on the table's card and its slip)":
        "第%(n)s回戦を組みました：各卓に専用のPINがあります（卓のカードと卓票に記載）",
    "Lock this tablet": "このタブレットをロック",
    "Lock": "ロック",
    "Creating games and tournaments on this app needs the organiser password.":
        "このアプリでゲームや大会を作るには主催者パスワードが必要です。",
    "Organiser sign-in": "主催者サインイン",
    'The organiser password opens the creation of games and tournaments on this tablet. It is set on the server with "referee organiser-password".':
        "主催者パスワードで、このタブレットからゲームや大会を作れるようになります。パスワードはサーバーで「referee organiser-password」により設定します。",
    "Sign in": "サインイン",
    "Table slips": "卓票",
    "Players in their seats (the seating roll decides who starts):": "座席順のプレイヤー（スタート順はサイコロで決めます）：",
    "Time limit: %(n)s minutes": "制限時間：%(n)s分",
    "The table's screen:": "この卓の画面：",
    "Referee PIN for this table only:": "この卓専用の審判PIN：",
    "This table was seated before tables had their own PIN: the director's PIN opens it.":
        "この卓は卓専用PINの導入前に組まれました：大会進行PINで開けます。",
    'Keep the PIN from players and spectators. Tap "Lock" in the top bar when you leave the table.':
        "PINはプレイヤーや観客に見せないでください。卓を離れるときは上のバーの「ロック」を押してください。",
    "referee PIN": "審判のPIN",
    "Only this table's referee records here: give the table's PIN (on its slip) or the director's PIN.":
        "ここで記録できるのはこの卓の審判だけです：卓のPIN（卓票に記載）または大会進行PINを入力してください。",
    "Spectators' display": "観客用の表示画面",
    "PIN": "PIN",
    "PIN: the director's": "PIN：大会進行PIN",
    "Table slips (PDF, with each table's PIN)": "卓票（PDF、各卓のPIN入り）",
    "what was sent is larger than %(n)s MB, the most this app reads: nothing was recorded":
        "送信された内容が%(n)s MBを超えています（このアプリが読み込める上限）：何も記録していません",
    "at most %(n)s players": "プレイヤーは%(n)s人までです",
    "a tournament has at most {n} players": "大会のプレイヤーは{n}人までです",
    "round minutes must be whole numbers from 1 to 600, got {minutes}":
        "回戦の時間は1から600までの整数（分）で指定してください（入力：{minutes}）",
    "round minutes must be whole numbers from 1 to 600, e.g. 70 60 60":
        "回戦の時間は1から600までの整数（分）で指定してください（例：70 60 60）",
    "{field} is longer than {maximum} characters": "{field}が{maximum}文字を超えています",
    "{field} contains a character that cannot be stored or shown (U+{code})":
        "{field}に保存も表示もできない文字（U+{code}）が含まれています",
    "the record was altered at entry {n}: nothing more is recorded in this game (export it: the good entries can be imported as a new game)":
        "記録は{n}番目の記録で改変されています：このゲームにはこれ以上記録しません（書き出せば、改変前までの記録を新しいゲームとして読み込めます）",
    "the record's header cannot be read: {reason}": "記録のヘッダーを読めません：{reason}",
    "The record was altered at entry %(n)s": "記録は%(n)s番目の記録で改変されています",
    "its stored text is not the one that was recorded": "保存されている内容が記録されたものと異なります",
    "a stored entry is missing there": "保存されていた記録がそこで欠けています",
    "an entry was inserted there": "そこに記録が挿入されています",
    "it no longer follows the rules": "ルールに合わなくなっています",
    "The game is shown as it stood before that entry, and nothing more can be recorded. The exported record keeps every stored entry.":
        "ゲームはその記録の直前の状態で表示され、これ以上は記録できません。書き出した記録には保存されている記録がすべて含まれます。",
    "a tournament's table is archived or deleted with its tournament": "大会の卓は大会ごとにアーカイブまたは削除します",
    "no records folder is set (RECORDS_DIR): a game is deleted only once its record is kept there":
        "記録フォルダ（RECORDS_DIR）が設定されていません：ゲームは記録を保存してからでないと削除できません",
    "game archived: it is off the games list, and kept whole": "ゲームをアーカイブしました：一覧から外れ、記録はすべて保存されています",
    "game back on the games list": "ゲームを一覧に戻しました",
    "game %(n)s deleted; its record is kept in %(file)s": "ゲーム%(n)sを削除しました。記録は%(file)sに保存されています",
    "tournament archived: it is off the list, and kept whole": "大会をアーカイブしました：一覧から外れ、すべて保存されています",
    "tournament back on the list": "大会を一覧に戻しました",
    "tournament deleted; the records of its %(n)s games are kept in records/deleted/":
        "大会を削除しました。%(n)sゲームの記録はrecords/deleted/に保存されています",
    "Bring back to the list": "一覧に戻す",
    "Archive (off the list, kept whole)": "アーカイブ（一覧から外し、すべて保存）",
    "Delete…": "削除…",
    "Each game's record file is kept in the server's records/deleted/ folder first.":
        "各ゲームの記録ファイルは、先にサーバーのrecords/deleted/フォルダに保存されます。",
    "Yes: delete": "はい：削除する",
    "Archived games": "アーカイブしたゲーム",
    "Games on the list": "一覧のゲーム",
    "This game": "このゲーム",
    "Delete this game and its %(n)s entries?": "このゲームと%(n)s件の記録を削除しますか？",
    "This tournament": "この大会",
    "Delete this tournament, its rounds and the %(n)s games they seated?": "この大会と各回戦、組まれた%(n)sゲームを削除しますか？",
    "Archived tournaments": "アーカイブした大会",
    "Tournaments on the list": "一覧の大会",
    "this tablet is locked (its unlock ended, or it was locked): nothing was recorded; give the PIN, then tap again":
        "このタブレットはロックされています（ロック解除の期限切れ、またはロック済み）：何も記録していません。PINを入力してから、もう一度押してください",
    "too many wrong PINs: unlocking here is refused for up to %(n)s minutes, right PIN or wrong; the director can still open this table from the director's page":
        "PINの誤りが多すぎます：最長%(n)s分間、ここでのロック解除は（正しいPINでも）受け付けません。大会進行は大会進行画面からこの卓を開けます",
    "too many wrong PINs or passwords from this device: it is refused for up to %(n)s minutes, right or wrong; try again later, or from another device":
        "この端末からのPINまたはパスワードの誤りが多すぎます：最長%(n)s分間（正しくても）受け付けません。時間をおくか、別の端末から試してください",
    "this address takes a form sent from a screen, not a page opened: nothing was recorded":
        "このアドレスは画面から送るフォーム用で、ページとしては開けません：何も記録していません",
    "there is no such page": "そのページはありません",
    "a tournament needs at least 2 players, got {names}": "大会には2人以上のプレイヤーが必要です（入力：{names}）",
    "each player is listed once: {names} listed more than once": "プレイヤーは1回ずつ登録してください：{names}が重複しています",
    "no game %(n)s": "ゲーム%(n)sはありません",
    "Only this game's referee records here: give the PIN chosen when the game was made.":
        "ここで記録できるのはこのゲームの審判だけです：ゲーム作成時に決めたPINを入力してください。",
    "nothing more is recorded at this table; it has no result and does not hold up the next round":
        "この卓ではこれ以上記録しません。結果はなく、次の回戦の組み合わせを妨げません",
    "The director's PIN opens this tournament's page (seating, calling time, the table slips) and every one of its tables.":
        "大会進行PINで、この大会の画面（組み合わせ、終了の合図、卓票）とすべての卓を開けます。",
    "%(where)s: %(why)s.": "%(where)s：%(why)s。",
    # --- end roles and PINs (issue 12) ---
    # --- table words (issue 11) ---
    "a get-out-of-jail card (%(deck)s)": "釈放カード（%(deck)s）", "%(square)s (mortgaged)": "%(square)s（抵当）",
    "%(player)s ⇄ %(partner)s: %(player)s gives %(give)s; %(partner)s gives %(take)s":
        "%(player)s ⇄ %(partner)s：%(player)s は %(give)s を、%(partner)s は %(take)s を渡す",
    "rescue: %(trade)s": "救済：%(trade)s", "debt negotiation: %(trade)s": "負債交渉：%(trade)s",
    "a hotel": "ホテル1軒", "a house": "家1軒",
    "%(player)s draws a %(deck)s card: %(card)s": "%(player)s が%(deck)sのカードを引く：%(card)s",
    "%(player)s uses %(card)s": "%(player)s が %(card)s を使う",
    "%(bidders)s bids %(amount)s for %(lot)s": "%(bidders)s が %(lot)s に %(amount)s で入札",
    "hammer: no bid, %(lot)s stays with the bank": "落札：入札なし、%(lot)s は銀行に残る",
    "hammer: no bid for %(lot)s": "落札：%(lot)s への入札なし",
    "hammer: %(player)s's winning bid of %(amount)s for %(lot)s is void": "落札：%(player)s の %(lot)s の落札 %(amount)s は無効",
    "hammer: %(player)s buys %(lot)s for %(amount)s": "落札：%(player)s が %(lot)s を %(amount)s で購入",
    "hammer: %(player)s wins %(lot)s for %(amount)s": "落札：%(player)s が %(lot)s を %(amount)s で落札",
    "%(player)s buys %(square)s for %(price)s": "%(player)s が %(square)s を %(price)s で購入",
    "%(player)s declines %(square)s: it goes to auction": "%(player)s は %(square)s を購入しない：競売へ",
    "%(player)s declares buildings: %(changes)s": "%(player)s が建設を宣言：%(changes)s",
    "%(player)s sells buildings: %(changes)s": "%(player)s が建物を売却：%(changes)s",
    "Order of play": "スタート順の決め方", "Doubles in a row that send a player to jail": "刑務所行きとなる連続ゾロ目の回数",
    "Auction when the player declines to buy": "購入しない場合の競売", "Lowest bid at an auction": "競売の最低入札額",
    "Bid step at an auction": "競売の入札単位", "Equal calls at the same time": "同時に同額のコール",
    "The high bidder raising their own bid": "最高値の入札者による自分の入札の引き上げ",
    "A winning bid the winner cannot pay": "支払えない金額での落札", "An auction without a bid": "入札のない競売",
    "Rent on a whole colour group": "同色独占時のレンタル料",
    "A mortgaged lot cancels the doubled rent of its group": "抵当の土地による独占時の2倍レンタル料の解除",
    "Mortgaged deeds count for rent": "抵当の権利書もレンタル料の枚数に数える", "Income tax": "所得税",
    "Income tax as a share of assets": "所得税（全財産の評価額に対する割合）", "Free Parking": "無料駐車場",
    "Rent collected while in jail": "刑務所にいる間のレンタル料の徴収",
    "Doubles after paying or using a card to leave jail roll again": "出所料・釈放カードで出た後のゾロ目でもう1回振る",
    "Rolls for doubles in jail": "刑務所でゾロ目を狙える回数",
    "Getting a jail card from another player before paying the fine": "出所料を払う前の他者からの釈放カードの入手",
    "Mortgage interest": "抵当の利息", "Rounding of mortgage interest": "抵当の利息の端数",
    "When deeds may be mortgaged": "抵当に入れられる時",
    "Interest on a mortgaged deed received from a player": "他者から入手した抵当の権利書の利息",
    "Deeds after a bankruptcy to the bank": "銀行破産の際の権利書",
    "Bankrupted by the 'pay each player' card": "「各プレーヤーに支払う」カードでの破産",
    "Bankruptcy leaving jail after the third failed roll": "刑務所から3回目にゾロ目が出なかった際の破産",
    "Houses per hotel": "ホテル1軒に必要な家の数", "When buildings may be built": "建設できる時",
    "Selling a hotel as houses from the bank": "銀行の家を加えたホテルの売却", "What the bank pays for a hotel": "ホテルの売却額",
    "After time is called": "終了の合図の後", "Deeds in the asset count": "資産計算での権利書",
    "Mortgaged deeds in the asset count": "資産計算での抵当の権利書", "Buildings in the asset count": "資産計算での家・ホテル",
    "When trades may be made": "交渉できる時", "Limits on trades": "取引の制限",
    "Provisional bankruptcy and rescue": "仮破産と救済", "Trades before anyone has passed GO": "誰かがGOを通過する前の取引",
    "Deeds dealt to each player at the start": "開始時に各プレーヤーに配る権利書",
    "A dealt pair of one colour is dealt again": "同色などの組の配り直し",
    "Seating": "着席", "Dice": "サイコロ", "Doubles": "ゾロ目", "Salary": "サラリー", "Buying a deed": "土地の購入",
    "Auction": "競売", "Rent": "レンタル料", "Railroad rent": "鉄道のレンタル料", "Utility rent": "公共会社のレンタル料",
    "No rent on a mortgaged lot": "抵当の土地のレンタル料", "Taxes": "所得税と物品税",
    "Chance and Community Chest": "チャンスと共同基金", "Jail": "刑務所", "Leaving jail": "出所", "Mortgage": "抵当",
    "Lifting a mortgage": "抵当戻し", "Debt": "負債", "Bankruptcy": "破産", "Between turns": "手番と手番の間",
    "Correcting a mistake": "間違いの修正", "End of the game": "勝負の決め方", "Building houses and hotels": "家・ホテルの建て方",
    "Shortage of houses and hotels": "家・ホテルの不足", "Selling buildings": "建物の売却", "Selling a hotel": "ホテルの売却",
    "Ranking when time is called": "時間ゲームの順位", "Trades": "取引",
    "by a roll of the dice, highest first": "サイコロの目が大きい順",
    "the highest roll starts, then seat order": "目が最も大きい人から席順",
    "the caller nearest in turn order from the next player wins": "次の手番のプレーヤーから右回りに近い人が優先",
    "refused: the first call stands": "認めない（先のコールが有効）",
    "void: the auction is run again without the winner": "無効、そのプレーヤーを除いて競売をやり直す",
    "the deed stays with the bank": "権利書は銀行に残る", "a flat amount": "定額",
    "a flat amount or a share of assets": "定額か全財産の評価額の割合かを選択", "nothing happens": "何も起きない",
    "taxes and fines collect there for the player who lands": "税金・罰金がたまり、止まったプレーヤーが受け取る",
    "rounded up": "切り上げ", "rounded down": "切り捨て",
    "between turns, or to raise cash for a payment": "手番と手番の間、または支払いの現金を作る時",
    "at any time": "いつでも", "10% at once on receiving it": "入手時に10%を支払う",
    "only when the mortgage is lifted": "抵当を抜く時のみ",
    "auctioned unmortgaged, in board order from GO": "GOから順に、抵当のない状態で競売",
    "back to the bank unowned, for sale again": "銀行に戻り、再び購入できる",
    "as the JMA rules say (rescue covering fine and rent)": "JMAルールどおり（救済は出所料とレンタル料の両方を完済）",
    "a bankruptcy to the bank": "銀行破産", "between turns": "手番と手番の間",
    "only by a player in debt": "負債を負ったプレーヤーのみ", "by any player": "どのプレーヤーでも",
    "half of five house prices": "家5軒分の建設費の半額", "one more roll, then the game ends": "もう1回サイコロを振って終了",
    "play on until everyone has had as many turns": "全員の手番の回数がそろうまで続ける",
    "between turns, or in debt negotiation": "手番と手番の間、または負債交渉", "the JMA limits": "JMAの制限",
    "yes": "あり", "no": "なし", "%(n)s times": "%(n)s倍",
    "Rules": "ルール", "search the rules (e.g. auction, 抵当)": "ルールを検索（例：競売、抵当）",
    "Search": "検索", "Each clause is quoted in its original language, with a translation.": "各条文は原文のまま引用し、翻訳を添えています。",
    "Note: %(note)s": "注：%(note)s", "%(option)s: %(value)s": "%(option)s：%(value)s",
    "%(buildings)s: %(amount)s": "%(buildings)s：%(amount)s", "No clause matches “%(q)s”.": "「%(q)s」に一致する条文はありません。",
    # --- end table words (issue 11) ---
    "Tournament": "大会", "round minutes must be whole numbers, e.g. 70 60 60": "各ゲームの時間は整数で（例：70 60 60）",
    "wrong PIN": "PINが違います",
    # --- decision cards (issue 11) ---
    "In the bank: %(houses)s, %(hotels)s": "銀行の在庫：%(houses)s、%(hotels)s",
    "%(n)s deeds": "権利書%(n)s枚", "1 deed": "権利書1枚", "%(deeds)s (%(n)s mortgaged)": "%(deeds)s（うち抵当%(n)s枚）",
    "The bank has %(bank)s; the hotels declared are built first and give back %(back)s.":
        "銀行には%(bank)sあり、宣言されたホテルを先に建てることで%(back)sが戻ります。",
    "%(player)s has %(cash)s, less than the %(cost)s it costs: it lapses when the buildings go up.":
        "%(player)s の現金は%(cash)sで、費用%(cost)sに足りません：建設の時点で無効になります。",
    "It needs %(needed)s; the bank has %(there)s for the declarations: it lapses when the declarations close.":
        "%(needed)sが必要ですが、宣言に使える銀行の在庫は%(there)sです：宣言の締め切りで無効になります。",
    "It needs %(needed)s; the bank has %(there)s: it lapses when the declarations close.":
        "%(needed)sが必要ですが、銀行の在庫は%(there)sです：宣言の締め切りで無効になります。",
    "Declared in all: %(needed)s; the bank has %(there)s for them. Closing the declarations starts a shortage auction, "
    "one building at a time, unless a declaration is withdrawn or reduced first.":
        "宣言の合計：%(needed)s。銀行の在庫は%(there)sです。先に宣言の取り消しか縮小がなければ、宣言を締め切ると不足分の"
        "競売が1軒ずつ始まります。",
    "Declared in all: %(needed)s; the bank has %(there)s for them. Closing the declarations builds those the bank can "
    "fill; the others lapse.":
        "宣言の合計：%(needed)s。銀行の在庫は%(there)sです。宣言を締め切ると、在庫で足りる宣言だけが建設され、"
        "残りは無効になります。",
    "Declared in all: %(needed)s; the bank has %(there)s for them: the buildings go one at a time by auction, and after "
    "each the declarations stand again, less what was built.":
        "宣言の合計：%(needed)s。銀行の在庫は%(there)sです：建物は1軒ずつ競売にかけられ、そのたびに建った分を除いて"
        "宣言が改めて有効になります。",
    "Lot: %(building)s": "競売品：%(building)s",
    "Opening price for each bidder: the building price of the cheapest lot where they could build.":
        "各入札者の開始価格：その人が建てられる土地のうち最も安い建設定価。",
    "%(player)s: from %(price)s (%(square)s)": "%(player)s：%(price)sから（%(square)s）",
    "houses declared / in the bank": "宣言された家 / 銀行の在庫", "hotels declared / in the bank": "宣言されたホテル / 銀行の在庫",
    "Out of this round after an unpayable bid: %(players)s": "支払えない落札によりこの宣言から除外：%(players)s",
    "%(player)s declares": "%(player)s の宣言", "cost %(amount)s": "費用%(amount)s",
    "from the bank: %(buildings)s": "銀行から：%(buildings)s", "(stays)": "（そのまま）",
    "No declaration stands.": "有効な宣言はありません。",
    "No one else follows: close the declarations — the bank is short: an auction of %(building)s follows":
        "追随なし：宣言を締め切る — 在庫不足：%(building)sの競売へ",
    "No one else follows: close the declarations — nothing can be built, they lapse":
        "追随なし：宣言を締め切る — 建設できるものはなく、宣言は無効",
    "No one else follows: close the declarations — build for %(amount)s in all":
        "追随なし：宣言を締め切る — 合計%(amount)sで建設",
    "Withdraw %(player)s's declaration of %(amount)s": "%(player)s の宣言（%(amount)s）を取り消す",
    "the winning bid": "落札額", "owed to %(creditor)s": "%(creditor)s への負債", "rent ahead, after the fine": "出所料の後のレンタル料",
    "%(player)s's cash": "%(player)s の現金", "still missing": "不足額",
    "mortgaging every deed left (%(n)s)": "残りの権利書をすべて抵当に（%(n)s枚）",
    "selling every building (%(n)s)": "建物をすべて売却（%(n)s軒）",
    "less one group kept to build on": "建設先として残す1グループの分を除く",
    "in all, with the cash": "現金を含めた調達可能額の合計",
    "Then %(player)s owes %(amount)s more, in payments waiting behind this one.":
        "この後、%(player)s にはさらに%(amount)sの支払いが控えています。",
    "1. Raise cash: each button records one way, with what it raises": "1. 現金の調達：ボタンごとに1つの方法とその調達額",
    "2. Pay": "2. 支払い", "Pay": "支払い",
    "Paid by itself: the bid of %(amount)s goes to the bank the moment %(player)s has it in cash — %(missing)s still "
    "missing. No trades during an auction.":
        "自動で支払われます：%(player)s の現金が揃った時点で落札額%(amount)sが銀行に支払われます — 不足額%(missing)s。"
        "競売中の取引はできません。",
    "Paid by itself: the %(amount)s goes to %(creditor)s the moment %(player)s has it in cash; selling and mortgaging "
    "everything leaves %(short)s short, which only a rescue can bring.":
        "自動で支払われます：%(player)s の現金が揃った時点で%(amount)sが %(creditor)s に支払われます。すべてを売却し"
        "抵当に入れても%(short)s足りず、それを補えるのは救済だけです。",
    "Paid by itself: the %(amount)s goes to %(creditor)s the moment %(player)s has it in cash — %(missing)s still missing.":
        "自動で支払われます：%(player)s の現金が揃った時点で%(amount)sが %(creditor)s に支払われます — 不足額%(missing)s。",
    "Or a rescue: a trade with a player other than the creditor": "または救済：債権者以外のプレーヤーとの取引",
    "Or negotiate: a trade (debt negotiation)": "または交渉：取引（負債交渉）",
    "Rescue by %(partner)s": "%(partner)s による救済", "Trade with %(partner)s": "%(partner)s と取引",
    "Or bankruptcy": "または破産",
    # --- end decision cards (issue 11) ---
    # --- director/tournament (issue 11) ---
    "%(points)s": "%(points)s点",
    "%(tournament)s: round %(round)s, table %(table)s": "%(tournament)s 第%(round)s回戦 第%(table)s卓",
    "Game #%(n)s": "ゲーム #%(n)s", "turns → %(n)s": "手番 → %(n)s",
    "a tournament needs at least 2 players with different names, got {names}":
        "大会には異なる名前のプレーヤーが2人以上必要です（入力：{names}）",
    "the director PIN must have at least 4 characters": "大会進行PINは4文字以上にしてください",
    "no tournament {tournament}": "大会 {tournament} はありません",
    "round {round} is still being played": "第{round}回戦はまだ対戦中です",
    "tournament {tournament} has no round {round}": "大会 {tournament} に第{round}回戦はありません",
    "no tournament %(n)s": "大会 %(n)s はありません", "time called on 1 table": "1卓で終了の合図",
    "%(n)s players": "%(n)s人", "R%(n)s": "%(n)s回戦", "game over": "ゲーム終了", "not started": "未開始",
    "no time limit": "時間制限なし", "Not started:": "未開始の卓：",
    "still in the seating roll: time is not called there": "スタート順のサイコロ中：この卓には終了の合図をしません",
    "its clock was never started": "ゲーム時計が一度も開始されていません",
    "Confirm: call time on 1 table": "確定：1卓に終了の合図", "Confirm: call time on %(n)s tables": "確定：%(n)s卓に終了の合図",
    "No table of this round can have time called yet.": "この回戦には、まだ終了の合図ができる卓がありません。",
    "PDF (A4)": "PDF（A4）", "PDF (Letter)": "PDF（レター）", "%(n)s min": "%(n)s分",
    # --- end director/tournament (issue 11) ---
    "the director PIN is needed to seat a round (it becomes the tables' referee PIN)":
        "組み合わせには大会進行のPINが必要です（各卓の審判PINになります）",
    "round %(n)s seated": "第%(n)s回戦の組み合わせを決定", "time called on %(n)s tables": "%(n)s卓で終了の合図",
    "Tournaments": "大会", "games": "各ゲーム", "monopoly wins": "モノポリー勝ち", "assets": "資産",
    "No finished games yet.": "終了したゲームはまだありません。", "standings": "順位表", "Round %(n)s": "第%(n)s回戦",
    "final": "決勝", "Call time on every table of this round": "この回戦の全卓に終了の合図", "Table %(n)s": "第%(n)s卓",
    "Seat the next round": "次の回戦の組み合わせ", "Director PIN": "大会進行PIN",
    "final, seeded from the standings": "決勝（順位表から組み合わせ）", "Seat round %(n)s": "第%(n)s回戦を組む",
    "Standings": "順位表", "players": "人", "No tournaments yet.": "大会はまだありません。", "New tournament": "新しい大会",
    "Name": "名前", "Scoring": "得点方式", "Ruleset": "ルール", "Players, one per line": "プレーヤー（1行に1人）",
    "Minutes per round (e.g. 70 60 60)": "各回戦の時間（分、例：70 60 60）", "Create the tournament": "大会を作成",
    "Unlock": "ロック解除",
    "Result sheet": "結果表", "game in progress": "ゲーム中", "houses": "家", "hotels": "ホテル", "signature": "署名",
    "Net worth over the game": "資産の推移", "Referee": "審判", "Score sheet": "記録用紙", "Round": "回戦",
    "Table": "卓", "rank": "順位", "Notes": "メモ", "not counted (best games only)": "集計外（上位の成績のみ集計）",
    "Standing so far": "現在の順位", "%(houses)s houses, %(hotels)s hotels": "家%(houses)s軒、ホテル%(hotels)s軒",
    "result": "結果", "placement points": "順位点",
    "Tournament regulations (they come before the ruleset)": "大会規定（ルールより優先）",
    "two deeds dealt to each player, bought at face value in reverse seat order (pairs of one colour, two railroads or two utilities are dealt again)":
        "各プレーヤーに権利書を2枚配り、スタート順の逆から額面で購入（同色・鉄道2枚・公共会社2枚の組は配り直し）",
    "no trades except debt negotiation until some player has passed GO": "誰かがGOを通過するまで負債交渉以外の取引は不可",
    "Deal these deeds to %(player)s": "この権利書を %(player)s に配る",
    "dealing deeds: waiting for {player}'s deeds": "権利書の配布：{player} に配る権利書待ち",
    "this form is not one the table screen makes: nothing was recorded": "この画面から送られたフォームではありません：何も記録されていません",
    "the latest %(n)s": "直近%(n)s件",
    "seating roll": "スタート順のサイコロ", "rolls": "サイコロ", "buys": "購入", "declines: auction": "購入しない：競売",
    "bids": "入札", "hammer": "落札", "income tax": "所得税", "rent roll": "レンタル料のサイコロ",
    "pays to leave jail": "出所料を払う", "uses a jail card": "釈放カードを使う", "mortgages": "抵当に入れる",
    "lifts the mortgage on": "抵当を戻す", "declares buildings": "建設を宣言", "reduces the declaration": "宣言を減らす",
    "declarations closed": "宣言の締め切り", "builds on": "建設", "sells buildings": "建物を売却",
    "trades with": "取引", "time called": "終了の合図", "roll-off": "順位決定のサイコロ", "void": "取り消し",
    "Refused": "できません",
    "Too late: the player has already rolled": "すでにサイコロを振った後です",
    "Already mortgaged": "すでに抵当に入っています", "Not a valid bid amount": "入札額がルールに合いません",
    "Not two dice": "サイコロ2個ではありません", "A field of the entry is wrong": "記録の項目に誤りがあります",
    "Too many buildings for one lot": "1つの土地に建てられる数を超えています",
    "Not a reduction of the declaration": "宣言を減らす内容ではありません",
    "That player is bankrupt": "そのプレーヤーは破産しています", "Below the building price": "建設定価を下回っています",
    "A deed may not go for its mortgage value or less": "抵当価額以下での権利書の譲渡はできません",
    "The bid must beat the highest bid": "最高値を上回る必要があります",
    "The colour group has buildings": "そのカラーグループに建物があります",
    "No buying back at once at another price": "その場で異なる価格での買い戻しはできません",
    "Not bankrupt: the debt can still be raised": "破産ではありません：まだ負債を支払う現金を作れます",
    "Not enough cash": "現金が足りません", "A building cannot go there": "そこには建てられません",
    "That card is held by a player": "そのカードはプレーヤーが持っています",
    "A rescue comes from a player other than the creditor": "救済は債権者以外のプレーヤーからのみです",
    "A declaration stands while the bank has enough": "銀行の在庫内では宣言を取り消せません",
    "A player is named twice": "同じプレーヤーが2回指定されています", "A deed is named twice": "同じ権利書が2回指定されています",
    "Out of this auction after an unpayable bid": "支払えない落札をしたためこの競売には参加できません",
    "Out of this round of declarations after an unpayable bid": "支払えない落札をしたためこの宣言には参加できません",
    "The game is over": "ゲームは終了しています", "Gifts are not allowed": "贈与はできません",
    "A hotel cannot be broken into houses from the bank": "銀行の家を加えてホテルを家に戻すことはできません",
    "The bank has not enough houses": "銀行に家が足りません", "Impossible die": "ありえないサイコロの目です",
    "A jail card may not go for $50 or more": "釈放カードを$50以上で譲渡することはできません",
    "A rescue must cover both the jail fine and the rent ahead": "救済提示は出所料とその先のレンタル料の両方を完済できるものでなければなりません",
    "Something is missing from the entry": "記録に必要な項目がありません",
    "A lot of the group is mortgaged": "同色の土地に抵当に入っているものがあります",
    "No declaration to withdraw": "取り消す宣言がありません", "No get-out-of-jail card": "釈放カードがありません",
    "Buildings go on streets only": "建物は土地にのみ建てられます", "Not an entry of the rules": "ルールの記録ではありません",
    "Not an entry": "記録ではありません", "Only between turns": "手番と手番の間のみです",
    "The bank has not enough buildings": "銀行の建物が足りません", "The player is not in jail": "刑務所に入っていません",
    "Not mortgaged": "抵当に入っていません", "Not now": "今はできません", "Not the owner": "所有者ではありません",
    "The game has not started": "ゲームはまだ始まっていません",
    "Not the creditor who may take over": "引き取りを選べる債権者ではありません",
    "That player is not due to roll": "そのプレーヤーの番ではありません",
    "The whole colour group is needed": "同色の土地をすべて所有している必要があります",
    "No lot to build on": "建てられる土地がありません",
    "A player cannot trade with themself": "自分自身とは取引できません", "Another entry came first": "別の記録が先に入りました",
    "Equal calls are not allowed: record the first call": "同額同時のコールは扱いません：先のコールを記録してください",
    "Time has already been called": "すでに終了の合図がありました", "Time has been called": "終了の合図がありました",
    "The even rule": "均等に建てるルール", "No such card in this deck": "この山にそのカードはありません",
    "Unknown field in the entry": "記録に不明な項目があります", "No such player": "そのプレーヤーはいません",
    "No such square": "そのマスはありません", "Unknown kind of entry": "不明な種類の記録です",
    "Not that many entries to take back": "そこまで遡る記録がありません",
    "A build cannot lower, a sale cannot raise": "建設で減らしたり売却で増やしたりはできません",
    "Not that player's decision": "そのプレーヤーの判断ではありません",
    # rulings explained on the table screen and in the log
    "%(why)s (%(source)s)": "%(why)s（%(source)s）",
    "%(names)s and %(last)s": "%(names)s と %(last)s",
    "equal calls at once: %(reason)s": "同時に同額のコール：%(reason)s",
    "%(players)s called %(amount)s at once: %(reason)s": "%(players)s が同時に同額の %(amount)s をコール：%(reason)s",
    "%(winner)s's call wins, as %(winner)s's turn comes next":
        "次の手番が %(winner)s なので、%(winner)s のコールが優先されます",
    "%(winner)s's call wins, as the caller nearest in turn order counting from %(next)s, whose turn comes next":
        "次の手番の %(next)s から右回りに最も近い %(winner)s のコールが優先されます",
    "%(player)s rolls again: doubles %(n)s of %(limit)s — %(nth)s doubles in a row sends %(player)s to jail":
        "%(player)s はもう1回振ります：ゾロ目%(limit)s回中%(n)s回目 — ゾロ目が%(limit)s回続くと %(player)s は刑務所に入ります",
    "%(player)s is in jail: roll %(n)s of %(max)s. Doubles let %(player)s out and the token moves by the roll.":
        "%(player)s は刑務所にいます：%(max)s回中%(n)s回目のサイコロです。ゾロ目が出れば出所し、その目だけ駒を進めます。",
    "%(player)s is in jail: roll %(n)s of %(max)s, the last. Without doubles, %(player)s pays the %(fine)s fine and "
    "the token moves by this roll.":
        "%(player)s は刑務所にいます：%(max)s回中%(n)s回目、最後のサイコロです。ゾロ目が出なければ %(player)s は出所料"
        "%(fine)sを支払い、この目だけ駒を進めます。",
    "%(player)s is in jail: roll %(n)s of %(max)s, the last. Without doubles, %(player)s pays the %(fine)s fine or "
    "uses a get-out-of-jail card, and the token moves by this roll.":
        "%(player)s は刑務所にいます：%(max)s回中%(n)s回目、最後のサイコロです。ゾロ目が出なければ %(player)s は出所料"
        "%(fine)sを支払うか釈放カードを使い、この目だけ駒を進めます。",
    "Last roll of the game: time has been called. Once this roll and all it brings are settled, the game ends and is "
    "ranked; doubles give no further roll.":
        "ゲーム最後のサイコロです：終了の合図がありました。このサイコロを振ってその処理を終えたらゲーム終了となり、"
        "順位を決めます。ゾロ目が出てももう1回は振りません。",
    "Time has been called: play goes on until %(player)s's turn is over, so that everyone has had as many turns; then "
    "the game ends and is ranked.":
        "終了の合図がありました：全員の手番の回数がそろうよう %(player)s の手番が終わるまで続け、その後ゲーム終了となり"
        "順位を決めます。",
    "no buildings": "建物なし", "1 house": "家1軒",
    "%(square)s %(before)s → %(after)s": "%(square)s %(before)s → %(after)s",
    "Sell buildings": "建物の売却", "Sell: the bank pays %(amount)s": "売却：銀行から%(amount)s",
    "The bank pays half of what the buildings sold cost; a hotel counts as the houses it replaced plus the hotel.":
        "銀行は売却する建物の建設費の半額を支払います。ホテルは置き換えた家の分とホテルの分を合わせて計算します。",
    "the buildings each sale leaves": "売却後に残る建物", "now: %(buildings)s": "現在：%(buildings)s",
    "sell buildings on the %(group)s group: %(change)s": "%(group)sのグループの建物を売却：%(change)s",
    "mortgage %(square)s": "%(square)s を抵当に入れる",
    "amount": "金額", "flat amount": "定額", "percentage of assets": "総資産に対する割合",
    "is dealt": "権利書の配布", "to %(creditor)s": "債権者 %(creditor)s",
    "log, page %(page)s of %(pages)s": "記録 %(page)s / %(pages)sページ", "table": "卓の画面", "newer": "新しい記録",
    "older": "古い記録",
    "get-out-of-jail cards: %(n)s": "釈放カード%(n)s枚",
    "third failed roll: waiting for {player} to pay the fine, or buy a get-out-of-jail card and use it":
        "3回目もゾロ目なし：{player} が出所料を払うか、釈放カードを買って使うか待ち",
    "{player} won at {amount} and raises the cash to pay": "{player} が {amount} で落札、支払う現金を調達中",
    "A hotel is broken into bank houses only as far as the debt needs":
        "銀行の家を加えてホテルを崩せるのは負債の支払いに必要な範囲までです",
    "The get-out-of-jail card settles the fine first": "出所料はまず釈放カードで精算します",
    "Before the fine, only a trade for a get-out-of-jail card": "出所料の前にできるのは釈放カードを入手する取引のみです",
    # rulings of issue 10 on the table screen: a bid raised, a jail card bought, a held shortage bid
    "%(player)s's winning bid of %(amount)s stands: %(player)s has %(cash)s, and %(can)s in all with every deed mortgaged and every building sold. The table waits for the %(short)s still missing; the bid is paid as soon as the cash is there.":
        "%(player)s の%(amount)sの落札は有効です：%(player)s の手持ちは%(cash)sで、すべての権利書を抵当に入れ建物を売却すれば合計%(can)sになります。不足の%(short)sが揃うまで進行を止め、揃いしだい支払います。",
    "The fine and the rent ahead come to more than %(player)s can raise: the get-out-of-jail card settles the fine first, and the cash is left for the rent.":
        "出所料と進むマスのレンタル料の合計は %(player)s が調達できる額を超えています：出所料は釈放カードの使用を優先し、現金はレンタル料に残します。",
    "Third failed roll: before paying the %(fine)s fine, %(player)s may buy a get-out-of-jail card from another player, for less than %(fine)s, and use it.":
        "3回目もゾロ目が出ませんでした：%(player)s は出所料%(fine)sを払う前に、他のプレーヤーから釈放カードを%(fine)s未満で買って使うことができます。",
    "A lot whose building price is above the winning bid of %(amount)s holds the bid: the auction goes on, and %(player)s must win it at that price or more to build there.":
        "建設定価が落札額%(amount)sを上回る土地を選ぶと落札は保留となり競売を継続します。その土地に建てるには、%(player)s は定価以上で落札する必要があります。",
    "%(player)s is in jail: roll %(n)s of %(max)s, the last. Without doubles, %(player)s pays the %(fine)s fine, or first buys a get-out-of-jail card from another player and uses it, and the token moves by this roll.":
        "%(player)s は刑務所にいます：%(max)s回中%(n)s回目、最後のサイコロです。ゾロ目が出なければ、%(player)s は出所料%(fine)sを支払うか、先に他のプレーヤーから釈放カードを買って使い、この目だけ駒を進めます。",
    "Ways for %(player)s to raise cash (has %(cash)s, the bid is %(amount)s):":
        "%(player)s の現金の調達方法（手持ち%(cash)s、落札額%(amount)s）：",
    "The bid is paid as soon as the cash is there. No trades during an auction.":
        "現金が揃いしだい落札額を支払います。競売中は交渉できません。",
    "Pay the %(fine)s fine and move": "出所料%(fine)sを払って進む",
    "chooses the lot": "土地を選ぶ",
    "After the fine, this roll leads to %(square)s: %(rent)s rent to %(owner)s, %(total)s in all, more than %(player)s can raise. A rescue must come from a player other than %(owner)s and cover both; the parts of a split rescue stand once together they do, and the fine waits until then.":
        "出所料の後、この目で%(square)sに進み、%(owner)s へのレンタル料%(rent)sがかかります。合計%(total)sは %(player)s が調達できる額を超えるため仮破産です。救済提示は %(owner)s 以外のプレーヤーからで、両方の負債を完済できるものでなければなりません。分割救済は合わせて完済できた時点で成立し、それまで出所料の支払いは待ちます。",
    "A bid for a %(kind)s starts at the building price of the cheapest lot where the bidder could build, in steps of %(step)s: each bidder's first quick bid is their own minimum.":
        "%(kind)sの競売は、入札者が建設できる土地のうち最も安い建設定価以上、%(step)s単位で行います：クイック入札の最初の額は入札者ごとの最低額です。",
    "%(player)s's bid of %(amount)s is held: %(square)s's building price is %(price)s. To build there %(player)s must win at %(price)s or more; a higher bid by anyone wins as usual.":
        "%(player)s の%(amount)sの落札は保留中です：%(square)sの建設定価は%(price)sです。そこに建てるには %(player)s が%(price)s以上で落札する必要があります。より高い入札は通常どおり有効です。",
    "The declarations start again without %(player)s.": "%(player)s 以外による建設の宣言からやりなおします。",
    "The auction runs again without %(player)s.": "%(player)s を除いて再度競売をやり直します。",
    "That would leave no lot to build on": "建設できる土地がなくなります",
    "{square}: mortgaging it would leave {player} no lot to build the {kind} on":
        "{square}：抵当に入れると、{player} が{kind}を建てられる土地がなくなります",
    "%(player)s's winning bid of %(amount)s is void: %(player)s could raise %(can)s at most, even by mortgaging every deed and selling every building":
        "%(player)s の%(amount)sの落札は無効です：すべての権利書を抵当に入れ、すべての建物を売却しても %(player)s が調達できるのは%(can)sまでです",
    "Hotels declared are built first; the houses they give back go to the house declarations.":
        "宣言されたホテルの建設を先に行い、返却された家は家の建設宣言に充てます。",
    "Use a get-out-of-jail card and move": "釈放カードを使って進む",
    "Buy %(holder)s's card": "%(holder)s の釈放カードを買う",
    "%(player)s pays": "%(player)s が支払う額",
    "less than %(fine)s": "%(fine)s未満",
    "%(square)s (%(price)s a building): the bid is held, the auction goes on":
        "%(square)s（建設定価%(price)s）：落札を保留して競売を継続",
    "%(square)s: pay %(price)s": "%(square)s：%(price)sを支払う",
    "%(player)s's bid of %(amount)s is below the building price of %(square)s: the bid is held and the auction goes on":
        "%(player)s の%(amount)sは%(square)sの建設定価に届きません：落札を保留して競売を継続します",
    "the 10%% interest on %(square)s is paid: lifting it now costs the mortgage value alone":
        "%(square)sの利息10%%を支払いました：今抵当を抜くなら抵当価額だけです",
    "A hotel is broken into bank houses only as far as the debt needs": "銀行の家を加えてホテルを家にするのは負債に必要な範囲内のみです",
    "Before the fine, only a trade for a get-out-of-jail card": "出所前に交渉できるのは釈放カードの入手のみです",
    "The get-out-of-jail card settles the fine first": "出所料は釈放カードの使用が優先です",
    "{player} won {square} at {amount} and raises the cash to pay": "{player} が{square}を{amount}で落札し、支払う現金を調達中",
    "{player} won a {kind} at {amount} and raises the cash to pay": "{player} が{kind}1軒を{amount}で落札し、支払う現金を調達中",
    "waiting for {player} to use the get-out-of-jail card to leave jail": "{player} が釈放カードを使って出所するのを待っています",
    "third failed roll: waiting for {player} to pay the fine, or buy a get-out-of-jail card and use it":
        "3回目もゾロ目なし：{player} が出所料を払うか、釈放カードを買って使うのを待っています",
    # refusal details: the engine's patterns (referee/engine/*.py) and the words that fill them (phrases.py)
    "this screen showed the table after entry {seen}, but it is now at entry {now}: nothing was recorded; look at the table again":
        "この画面は記録{seen}件目の後の卓を表示していましたが、卓はすでに{now}件目まで進んでいます：何も記録されていません。卓の画面を確認し直してください",
    "another tablet recorded an entry at the same moment: nothing was recorded; look at the table again":
        "別の端末が同時に記録しました：何も記録されていません。卓の画面を確認し直してください",
    "this screen showed the table after entry {seen}, but it is now at entry {now}: look at the table again":
        "この画面は記録{seen}件目の後の卓を表示していましたが、卓はすでに{now}件目まで進んでいます：卓の画面を確認し直してください",
    "{player} can raise {amount} by selling buildings and mortgaging, enough for the {debt} owed":
        "{player} は建物の売却と抵当で {amount} の現金を作れるので、{debt} の負債を支払えます",
    "{player} cannot take over this bankruptcy: only the owner of the square a player leaving jail after the third failed roll would move to may take over the unpaid fine":
        "{player} はこの破産を引き取れません：出所料の負債を含めて引き取れるのは、3回目にゾロ目が出ずに出所するプレーヤーが進むべきマスの債権者のみです",
    "{group}: buildings go on streets only": "{group}：建物は土地にのみ建てられます",
    "{player} does not own every lot of the {group} group": "{player} は{group}の土地をすべては所有していません",
    "a lot of the {group} group is mortgaged: lift the mortgage before building":
        "{group}の土地に抵当に入っているものがあります：建設の前に抵当を戻してください",
    "{square} cannot hold buildings": "{square} には建物を建てられません",
    "{player} does not own {square}": "{player} は {square} を所有していません",
    "{level} buildings on {square}: a lot holds at most {houses} houses or one hotel":
        "{square} に建物{level}軒：1つの土地に建てられるのは家{houses}軒かホテル1軒までです",
    "{square}: {now} now; a sale cannot take it to {level}": "{square} は現在{now}です：売却で{level}にすることはできません",
    "{square}: {now} now; a build cannot take it to {level}": "{square} は現在{now}です：建設で{level}にすることはできません",
    "{lots}: the lots of a group must differ by at most one building": "{lots}：同色の土地には均等に建てなければなりません（土地ごとの差は1軒まで）",
    "the bank has {houses}; this sale needs {needed}": "銀行にあるのは{houses}です：この売却には{needed}が必要です",
    "1 hotel": "ホテル1軒", "%(n)s hotels": "ホテル%(n)s軒",
    "a hotel may only be replaced by houses already standing in its group, unless the player is in debt":
        "ホテルを家に戻せるのは、そのカラーグループにある家の数の範囲内のみです（手持ち現金で支払えない負債を負ったときを除く）",
    "{player} owes {short} more than their cash; selling to {lots} raises {amount}, enough: a hotel is broken into houses from the bank only as far as the debt needs":
        "{player} の負債は手持ち現金より {short} 多いだけです：{lots} まで売却すれば {amount} となり足ります。銀行にある家を加えてホテルを家に戻せるのは、支払う現金を調達するのに必要な範囲内のみです",
    "time has been called: nothing more is built": "終了の合図がありました：これ以上の建設はできません",
    "{player} made an unpayable winning bid and is out of this round of declarations":
        "{player} は支払えない金額で落札したため、今回の建設の宣言には加われません",
    "{player} has {cash}; these buildings cost {price}": "{player} の現金は {cash} です：この建設には {price} かかります",
    "the bank has {houses} and {hotels} for it; this needs {houses_needed} and {hotels_needed}":
        "この建設に使える銀行の在庫は{houses}と{hotels}です：必要なのは{houses_needed}と{hotels_needed}です",
    "a declaration may be withdrawn or reduced only while the declared buildings exceed the bank's stock":
        "宣言の取消しや希望数を減らすことができるのは、建設希望数が銀行にある家等の数を超える場合のみです",
    "{player} has declared nothing": "{player} は建設を宣言していません",
    "{lot} is not a reduction of the declaration": "{lot} は宣言した希望数を減らすものではありません",
    "{player} has no lot where a {kind} may be built": "{player} には{kind}を建てられる土地がありません",
    "bid of {amount} by {player}: a bid for a {kind} starts at the building price of a lot where they could build, {minimum} at the least":
        "{player} の入札 {amount}：{kind}の競売は建てようとする土地の建設定価以上で行います（最低 {minimum}）",
    "{amount} is below the building price of every lot where {player} could build: the auction goes on":
        "{amount} は {player} が建てられるどの土地の建設定価にも届きません：落札を保留して競売を続けます",
    "a {kind} cannot go on {square} now": "今は {square} に{kind}を建てられません",
    "the bank has {houses} and {hotels}": "銀行の在庫は{houses}と{hotels}です",
    "{card} is not a card of the {deck} deck": "{card} は{deck}カードの山にありません",
    "{card} is held by {player}, not in the deck": "{card}は {player} が持っていて、カードの山にはありません",
    "time has already been called": "すでに終了の合図がありました",
    "the game has not started: {pending}": "ゲームはまだ始まっていません：{pending}",
    "no player named {name} at this table": "この卓に {name} というプレーヤーはいません",
    "{player} is not in the roll-off: {pending}": "{player} は順位決定のサイコロに加わっていません：{pending}",
    "{field} must be a non-empty text, got {value}": "{field} は空でない文字列でなければなりません（指定：{value}）",
    "{field} must be a whole number of at least {minimum}, got {value}":
        "{field} は{minimum}以上の整数でなければなりません（指定：{value}）",
    "dice must be two numbers, got {value}": "サイコロは2つの数でなければなりません（指定：{value}）",
    "impossible die {die}: a die shows 1 to 6": "ありえないサイコロの目 {die}：サイコロの目は1から6です",
    "{field} must be an object with cash, deeds and cards, got {value}":
        "{field} は現金(cash)・権利書(deeds)・カード(cards)の指定でなければなりません（指定：{value}）",
    "unknown field(s) {fields}": "不明な項目：{fields}",
    "{field} must be a list of squares, got {value}": "{field} はマスのリストでなければなりません（指定：{value}）",
    "{field} must be a list of card ids, got {value}": "{field} はカードIDのリストでなければなりません（指定：{value}）",
    "an entry must be a JSON object, got {value}": "記録はJSONオブジェクトでなければなりません（指定：{value}）",
    "unknown entry type {type}": "不明な種類の記録 {type}",
    "missing field(s) {fields}": "必要な項目がありません：{fields}",
    "{field} must be a list of names, got {value}": "{field} は名前のリストでなければなりません（指定：{value}）",
    "a bid gives either player (one call) or players (equal calls at once)":
        "入札には player（1人のコール）か players（同時に同額のコール）のどちらか一方を指定します",
    "{field} must be an index or a square id, got {value}": "{field} はマスの番号かIDでなければなりません（指定：{value}）",
    "{field} must map squares to building levels, got {value}": "{field} はマスごとの建物の数の指定でなければなりません（指定：{value}）",
    "{square}: a level is a number of houses or \"hotel\", got {value}": "{square}：建物の数は家の軒数か \"hotel\" です（指定：{value}）",
    "{field} must be flat or percent, got {value}": "{field} は flat か percent でなければなりません（指定：{value}）",
    "{player} cannot raise both the fine and the rent ahead: the get-out-of-jail card settles the fine first":
        "{player} は出所料と進んだマスのレンタル料の両方は支払えません：出所料は釈放カードの使用を優先して精算します",
    "{player} is not in jail": "{player} は刑務所に入っていません",
    "{player} has already rolled this turn": "{player} はこの手番ですでにサイコロを振っています",
    "{player} has {cash}; the fine is {fine}": "{player} の現金は {cash} です：出所料は {fine} です",
    "{player} holds no get-out-of-jail card": "{player} は釈放カードを持っていません",
    "{player} does not hold {card}": "{player} は{card}を持っていません",
    "the {deck} get-out-of-jail card": "{deck}の釈放カード",
    "a seating roll": "スタート順を決めるサイコロ",
    "dealing deeds": "権利書の配布",
    "a roll of the dice": "サイコロ",
    "a purchase": "購入",
    "declining to buy": "購入しない宣言",
    "a bid": "入札",
    "the hammer": "落札",
    "the choice of how to pay income tax": "所得税の支払い方法の選択",
    "a card drawn": "引いたカード",
    "the roll for the utility rent": "公共会社のレンタル料を決めるサイコロ",
    "paying the fine to leave jail": "出所料の支払い",
    "using a get-out-of-jail card": "釈放カードの使用",
    "a mortgage": "抵当入れ",
    "lifting a mortgage": "抵当戻し",
    "a bankruptcy": "破産",
    "a building declaration": "建設の宣言",
    "reducing a building declaration": "建設の宣言の取消し",
    "closing the building declarations": "建設の宣言の締め切り",
    "placing a building": "落札した建物の建設",
    "a sale of buildings": "建物の売却",
    "a trade": "取引",
    "calling time": "終了の合図",
    "a roll-off roll": "順位決定のサイコロ",
    "taking back entries": "記録の取り消し",
    "mortgage a deed": "権利書を抵当に入れる",
    "lift a mortgage": "抵当を戻す",
    "sell buildings": "建物を売却する",
    "build houses or hotels": "家等を建設する",
    "make a trade": "取引する",
    "a get-out-of-jail card": "釈放カード",
    "nothing": "なし",
    "only {n} entries can be taken back, not {count}": "取り消せる記録は{n}件までです（{count}件は取り消せません）",
    "{entry} cannot be recorded now: {pending}": "今は{entry}を記録できません：{pending}",
    "{player} rolled doubles and rolls again: the turn is not over": "{player} はゾロ目が出たのでもう1回サイコロを振ります：手番はまだ終わっていません",
    "{player} has left jail and rolls next: the turn is not over": "{player} は出所してこれからサイコロを振ります：手番はまだ終わっていません",
    "{player} cannot {act} while a payment is being settled: {pending}":
        "支払い処理中のため、{player} は今は{act}ことはできません：{pending}",
    "{player} cannot {act} now: {pending}": "{player} は今は{act}ことはできません：{pending}",
    "{square} is already mortgaged": "{square} はすでに抵当に入っています",
    "{square}: sell every building of its colour group before mortgaging":
        "{square}：抵当に入れる前に、同色の土地に建っているすべての建物を銀行に売却してください",
    "{square} is not mortgaged": "{square} は抵当に入っていません",
    "{player} has {cash}; lifting the mortgage on {square} costs {cost}":
        "{player} の現金は {cash} です：{square} の抵当を戻すには {cost} かかります",
    "{player} is bankrupt": "{player} は破産しています",
    "{player} is bankrupt and cannot bid": "{player} は破産しているため入札できません",
    "{player} made a winning bid they could not pay and is out of this auction":
        "{player} は支払えない金額で落札したため、この競売には加われません",
    "bid of {amount}: bids are from {minimum} in steps of {step}": "入札 {amount}：競売価格は{minimum}以上{step}単位です",
    "bid of {amount} does not beat the highest bid {high_bid} by {bidder}":
        "入札 {amount} は {bidder} の最高値 {high_bid} を上回っていません",
    "equal calls at once: record the call that came first": "同時に同額のコール：先にあったコールを記録してください",
    "{player} is bankrupt and out of the game": "{player} は破産してゲームから抜けています",
    "no square {square} on this board": "このボードに {square} というマスはありません",
    "{entry} by {player}: {pending}": "{player} の{entry}：{pending}",
    "{player} is not due to roll: {pending}": "{player} がサイコロを振る番ではありません：{pending}",
    "{player} is dealt {count} different deeds, not {given}": "{player} に配る権利書は異なる{count}枚です（{given}枚ではありません）",
    "{square} is not an unowned deed": "{square} は所有者のいない権利書ではありません",
    "{first} and {second} are one colour group, two railroads or two utilities: deal again":
        "{first} と {second} は同色・鉄道2枚・公共会社2枚の組です：配り直してください",
    "{player} cannot pay {price}": "{player} は {price} を支払えません",
    "{player} has {cash}; {square} costs {price} (mortgage first, or decline)":
        "{player} の現金は {cash} です：{square} は {price} です（抵当で現金を作るか、購入しない宣言をしてください）",
    "a player is named twice among the callers {players}": "コールしたプレーヤーに同じプレーヤーが2回指定されています：{players}",
    "{entry} is applied by the game record, not by the rules": "{entry}はルールではなくゲーム記録が処理します",
    "time has been called: no more trades": "終了の合図がありました：これ以上の取引はできません",
    "a player cannot trade with themself": "自分自身とは取引できません",
    "{player} is provisionally bankrupt: a rescue comes from a player other than the creditor":
        "{player} は仮破産です：救済は債権者以外のプレーヤーからのみ受けられます",
    "{square}: its colour group has buildings; sell them to the bank first": "{square}：同色の土地に建物があります。先に建物を銀行に売却してください",
    "a deed is named twice": "同じ権利書が2回指定されています",
    "{player} has {cash}, not {amount}": "{player} の現金は {cash} です（{amount} はありません）",
    "after the third failed roll {player} may only negotiate for a get-out-of-jail card before paying the fine: this trade gives them none":
        "3回目にゾロ目が出なかった {player} が出所料を払う前にできるのは、釈放カードを入手する交渉のみです：この取引では釈放カードが渡りません",
    "after this rescue {player} could raise {amount}: a rescue after the third failed jail roll must cover both the {fine} fine and the {rent} rent on {square}, {total} in all":
        "この救済で {player} が作れる現金は {amount} です：刑務所から3回目にゾロ目が出なかった場合の救済提示は、出所料 {fine} と {square} のレンタル料 {rent}、計 {total} の両方を完済できるものでなければなりません",
    "each side must give something: gifts are not allowed": "双方が何かを渡す必要があります：贈与（無償譲渡）はできません",
    "{goods} from {player} for {price}: that is worth {most} at most, and {deeds} alone must fetch more than the mortgage value {floor}: a deed may not go for its mortgage value or less, in a bundle or alone":
        "{player} の「{goods}」と「{price}」の交換：その価値は最大 {most} ですが、{deeds} だけでも抵当価額 {floor} を超える必要があります。抵当に入っていない権利書は、まとめてでも単独でも抵当価額以下で譲渡できません",
    "{goods} from {player} for {price}: the get-out-of-jail card would go for {least} or more: a card may not go for {fine} or more, in a bundle or alone":
        "{player} の「{goods}」と「{price}」の交換：釈放カードが {least} 以上で譲渡されることになります。釈放カードは、まとめてでも単独でも {fine} 以上で譲渡できません",
    "{goods} from {player} for {price}: part of it would go for nothing: gifts are not allowed, in a bundle or alone":
        "{player} の「{goods}」と「{price}」の交換：その一部が無償で渡ることになります。贈与（無償譲渡）は、まとめてでも単独でもできません",
    "buying back at once what was just sold, at a different price, is not allowed: only the same trade undone exactly":
        "売ったその場で異なる価格での買い戻しはできません：できるのは直前の取引をそのまま元に戻すことのみです",
    # --- the table screen's panels (issue 13) ---
    "Show": "表示する",
    "Nothing of this kind can be recorded now.": "今この種類の記録はできません。",
    "No sale of buildings the rules allow now.": "今ルール上できる建物の売却はありません。",
    "the table screen has no panel %(name)s": "審判画面にパネル%(name)sはありません",
}


# Korean and German for messages added after their catalogues were first written (their .po files hold the rest)
NEW_KO: dict = {
    "alternates: %(n)s":
        "예비 선수: %(n)s명",
    "board %(n)s":
        "%(n)s번 테이블",
    "round {round}, table {table}: result corrected ({reason}); the standings follow it, but round {later} was seated from the standings before this correction and stays as seated":
        "{round}라운드 {table}번 테이블: 결과를 정정했습니다 ({reason}). 순위표는 이를 따르지만, {later}라운드는 이 정정 전의 순위표로 배정되었으므로 그대로입니다",
    "Games in grey are not counted in the total (best games only, or a stage before the one that ranks the player).":
        "회색 게임은 합계에 넣지 않습니다 (상위 성적만 집계, 또는 순위를 정하는 단계 이전의 단계).",
    "the format {format} needs at least {n} players (a stage takes the best {n}); {count} are entered":
        "형식 {format}에는 {n}명 이상이 필요합니다 (상위 {n}명이 올라가는 단계가 있습니다). 등록은 {count}명입니다",
    "each division needs at least 2 players: {divisions} has fewer":
        "각 부문에는 2명 이상이 필요합니다: {divisions}은(는) 부족합니다",
    "alternates step in in their order: {first} comes before {name}":
        "예비 선수는 순서대로 투입됩니다: {name}보다 {first}이(가) 먼저입니다",
    "a player needs a name: {line}":
        "플레이어에게는 이름이 필요합니다: {line}",
    "after the name and the division only \"invited\" may follow: {line}":
        "이름과 부문 뒤에는 “invited”(초청)만 쓸 수 있습니다: {line}",
    "the standings cannot be worked out: {problem}":
        "순위표를 계산할 수 없습니다: {problem}",
    "{n} players cannot be seated at tables the scoring scores (of {sizes} players): check a player in, enter one late or let one drop, then seat the round":
        "{n}명은 점수 방식이 점수를 정한 인원({sizes}명)의 테이블로 나눌 수 없습니다: 체크인, 늦은 참가 또는 기권으로 인원을 바꾼 뒤 배정하세요",
    "no one to seat for {stage}: check the players in (Players between rounds) first":
        "{stage}에 배정할 사람이 없습니다: 먼저 플레이어를 체크인하세요 (라운드 사이 선수 관리)",
    "not counted in the total (best games only, or a stage before the one that ranks the player)":
        "합계에 넣지 않음 (상위 성적만 집계, 또는 순위를 정하는 단계 이전의 단계)",
    "Round %(n)s is being played: the next round is seated when every game of it is over.":
        "%(n)s라운드 진행 중입니다: 모든 게임이 끝나면 다음 라운드를 배정합니다.",
    "Going on to %(stage)s: %(players)s":
        "%(stage)s 진출: %(players)s",
    "Equal at the cut with %(last)s after every tie-break: %(players)s. The order of the standings decided; a result corrected or a player dropped changes it before the round is seated.":
        "모든 동점 처리 후에도 진출선에서 %(last)s와(과) 동점: %(players)s. 순위표의 순서로 정해졌습니다. 테이블을 배정하기 전이라면 결과 정정이나 기권으로 바뀝니다.",
    "{name} can take the place of a player still in, as a late entry":
        "{name}은(는) 늦은 참가로서 남아 있는 플레이어 대신에만 들어갈 수 있습니다",
    "{name} takes the place of {player} from round {round}; {player} has dropped":
        "{name}이(가) {round}라운드부터 {player} 대신 들어갑니다. {player}은(는) 기권했습니다",
    "in place of":
        "대신할 플레이어",
    "no one (a new place)":
        "없음 (새 자리)",
    "(with divisions: Name | Division; a seed invited to a later stage: Name | Division | invited)":
        "(부문이 있으면: 이름 | 부문, 이후 단계에 초청하는 선수: 이름 | 부문 | invited)",
    "the format {format} has no stage that takes invited seeds":
        "형식 {format}에는 초청 선수가 들어가는 단계가 없습니다",
    "no division {division} in this tournament (it has {divisions})":
        "이 대회에 부문 {division}은(는) 없습니다 (부문: {divisions})",
    "with the seeds invited to it (a previous champion), who take places among them":
        "초청 선수(전 우승자 등)도 참가하며 그만큼 자리를 차지함",
    "Division %(division)s":
        "부문: %(division)s",
    "Champion of %(division)s: %(player)s":
        "%(division)s 우승: %(player)s",
    "invited to the %(stage)s":
        "%(stage)s에 초청",
    "Division":
        "부문",
    "minutes by round: %(minutes)s (the last for every later round)":
        "라운드별 시간(분): %(minutes)s (이후 라운드는 마지막 값)",
    "Alternates, in order, one per line":
        "예비 선수(순서대로, 한 줄에 한 명)",
    "no player {name} in this tournament":
        "이 대회에 {name} 선수가 없습니다",
    "round {round} has been seated since this screen was drawn: nothing was changed":
        "이 화면이 표시된 후 {round}라운드 자리 배정이 완료되었습니다: 변경된 내용이 없습니다",
    "{name} is not on the list of players to seat: check-in is for them only":
        "{name}은(는) 배정 대상 선수 명단에 없습니다: 체크인은 대상 선수만 할 수 있습니다",
    "{name} is checked in: seated from round {round}":
        "{name} 체크인 완료: {round}라운드부터 배정됩니다",
    "{name} is not checked in: not seated until checked in":
        "{name} 미체크인: 체크인할 때까지 배정되지 않습니다",
    "{name} has already dropped":
        "{name}은(는) 이미 기권했습니다",
    "{name} is an alternate: taken off the list by dropping is not needed; they are never seated unless they step in":
        "{name}은(는) 예비 선수입니다: 기권으로 명단에서 뺄 필요가 없습니다. 예비 선수는 투입되지 않는 한 배정되지 않습니다",
    "{name} has dropped: not seated from round {round} (their results stand)":
        "{name} 기권: {round}라운드부터 배정되지 않습니다(기존 성적은 유지됩니다)",
    "no alternate is waiting to step in for {name}":
        "{name} 대신 투입할 예비 선수가 없습니다",
    "{name} has dropped; {alternate} steps in for them from round {round}":
        "{name} 기권. {round}라운드부터 {alternate}이(가) 대신 참가합니다",
    "{name} has not dropped":
        "{name}은(는) 기권하지 않았습니다",
    "{name} dropped before a round that has been seated since: they may enter again as a late entry only":
        "{name}의 기권 이후 이미 배정된 라운드가 있습니다: 늦은 참가로만 다시 참가할 수 있습니다",
    "{name} is back: seated from round {round}":
        "{name} 복귀: {round}라운드부터 배정됩니다",
    "{name} is not an alternate waiting to step in":
        "{name}은(는) 투입 대기 중인 예비 선수가 아닙니다",
    "{name} steps in: seated from round {round}":
        "{name} 투입: {round}라운드부터 배정됩니다",
    "unknown change to a player: {action}":
        "알 수 없는 선수 변경: {action}",
    "a player needs a name":
        "선수 이름을 입력해야 합니다",
    "{name} is already in this tournament":
        "{name}은(는) 이미 이 대회에 등록되어 있습니다",
    "{name} is alternate {n}":
        "{name}은(는) {n}번 예비 선수입니다",
    "{name} enters late: seated from round {round}":
        "{name} 늦은 참가: {round}라운드부터 배정됩니다",
    "the form names no round: nothing was changed":
        "양식에 라운드가 지정되지 않았습니다: 변경된 내용이 없습니다",
    "Players between rounds":
        "라운드 사이 선수 관리",
    "%(n)s to seat":
        "배정 대상 %(n)s명",
    "%(n)s not checked in":
        "미체크인 %(n)s명",
    "%(n)s alternates":
        "예비 선수 %(n)s명",
    "%(n)s dropped":
        "기권 %(n)s명",
    "Changes here take effect from round %(n)s: a game in progress is always finished.":
        "여기서 변경한 내용은 %(n)s라운드부터 적용됩니다: 진행 중인 게임은 항상 끝까지 진행됩니다.",
    "alternate %(n)s":
        "%(n)s번 예비 선수",
    "dropped after round %(n)s":
        "%(n)s라운드 후 기권",
    "dropped before round 1":
        "1라운드 전 기권",
    "not checked in":
        "미체크인",
    "stepped in for %(player)s from round %(n)s":
        "%(n)s라운드부터 %(player)s 대신 참가",
    "from round %(n)s":
        "%(n)s라운드부터",
    "Check in":
        "체크인",
    "Not here":
        "부재",
    "Drop":
        "기권",
    "Drop: %(alternate)s steps in":
        "기권: %(alternate)s 투입",
    "Step in":
        "투입",
    "Undo the drop":
        "기권 취소",
    "Late entry (from round %(n)s)":
        "늦은 참가(%(n)s라운드부터)",
    "Add as an alternate":
        "예비 선수로 추가",
    "players check in at the venue: only those checked in are seated":
        "선수는 현장에서 체크인합니다: 체크인한 선수만 배정됩니다",
    "Minutes per round (e.g. 70 60 60; empty: the format's own, if it has one)":
        "라운드별 시간(분) (예: 70 60 60, 비워 두면 형식의 기본값이 있을 경우 사용)",
    "game {game} is not a table of this tournament":
        "게임 {game}은(는) 이 대회의 테이블이 아닙니다",
    "this table's result was corrected since this screen was drawn: nothing was changed":
        "이 화면을 표시한 뒤 이 테이블의 결과가 정정되었습니다: 아무것도 바꾸지 않았습니다",
    "table {table} is still playing: a result is corrected after its game":
        "{table}번 테이블은 아직 진행 중입니다: 결과 정정은 게임이 끝난 뒤에 합니다",
    "a correction gives a place and assets for each player of the table, and no one else":
        "정정에는 그 테이블의 각 플레이어의 순위와 자산을 넣습니다 (다른 사람은 넣지 않습니다)",
    "{name}'s place must be from 1 to {n}":
        "{name}의 순위는 1부터 {n}까지여야 합니다",
    "{name}'s assets must be a whole amount from 0 to {max}":
        "{name}의 자산은 0부터 {max}까지의 정수여야 합니다",
    "the places do not make a ranking: {name} is {place}, with {ahead} ahead":
        "순위가 맞지 않습니다: {name}이(가) {place}위인데 앞에 {ahead}명이 있습니다",
    "a correction needs its reason, for the record":
        "정정에는 기록을 위한 이유가 필요합니다",
    "a monopoly win has one winner":
        "모노폴리 승리의 승자는 한 명입니다",
    "round {round}, table {table}: result corrected ({reason}); the standings follow it":
        "{round}라운드 {table}번 테이블: 결과를 정정했습니다 ({reason}). 순위표는 이를 따릅니다",
    "Corrections by the director":
        "디렉터의 정정",
    "Round %(r)s, table %(t)s":
        "%(r)s라운드 %(t)s번 테이블",
    "every game of this round is over":
        "이 라운드의 게임이 모두 끝났습니다",
    "the round's clock has not started":
        "이 라운드의 시계는 아직 시작하지 않았습니다",
    "The first round is not seated yet":
        "1라운드 테이블은 아직 배정되지 않았습니다",
    "correct":
        "정정",
    "Result corrected: %(reason)s":
        "결과 정정: %(reason)s",
    "Correct a result":
        "결과 정정",
    "Back to the director's page":
        "디렉터 화면으로 돌아가기",
    "the game's own result":
        "게임 자체의 결과",
    "This table is still playing: a result is corrected after its game.":
        "이 테이블은 아직 진행 중입니다. 결과 정정은 게임이 끝난 뒤에 합니다.",
    "The game's record is not changed: the correction is kept beside it, with its reason, and the standings follow the last correction.":
        "게임 기록은 바뀌지 않습니다. 정정은 이유와 함께 기록 옆에 보관되며, 순위표는 마지막 정정을 따릅니다.",
    "place":
        "순위",
    "a monopoly win (every other player bankrupt)":
        "모노폴리 승리 (다른 모든 플레이어 파산)",
    "Reason (kept and shown with the standings)":
        "이유 (보관되며 순위표와 함께 표시됩니다)",
    "Correct the result":
        "결과 정정하기",
    "Corrections of this table":
        "이 테이블의 정정",
    "room display":
        "회장 표시",
    "after time is called, play on until every player has had as many turns (the round ends when the first player's turn comes round again)":
        "종료 신호 뒤에는 모두가 같은 턴 수가 될 때까지 계속 (첫 플레이어의 차례가 다시 오면 종료)",
    "CSV":
        "CSV",
    "Format":
        "형식",
    "%(n)s rounds":
        "%(n)s라운드",
    "1 round":
        "1라운드",
    "as many rounds as the director seats":
        "라운드 수는 디렉터가 정함",
    "every player still in":
        "남아 있는 모든 플레이어",
    "the best %(n)s of the stage before":
        "이전 단계의 상위 %(n)s명",
    "the winner of each table of the stage before":
        "이전 단계 각 테이블의 1위",
    "tables drawn for the fewest repeat opponents (of 4, of 5 where the numbers do not divide)":
        "같은 상대와 다시 만나는 일이 가장 적도록 추첨으로 테이블 배정 (4인, 나누어떨어지지 않으면 5인)",
    "tables seeded snake-wise from the standings":
        "순위표에 따라 뱀 모양(스네이크)으로 테이블 배정",
    "ranked boards: the best on board 1, the next on board 2…":
        "순위별 테이블: 최상위가 1번 테이블, 다음이 2번 테이블…",
    "ranked by this stage's games alone":
        "이 단계의 게임만으로 순위 결정",
    "ranked by every game so far":
        "지금까지의 모든 게임으로 순위 결정",
    "places go board by board: the champion comes from board 1":
        "순위는 테이블 순서대로: 우승자는 1번 테이블에서",
    "%(n)s minutes a round":
        "라운드당 %(n)s분",
    "%(stage)s: %(how)s":
        "%(stage)s: %(how)s",
    "The format's stages":
        "형식의 단계",
    "%(stage)s, round %(k)s of %(n)s":
        "%(stage)s, %(n)s라운드 중 %(k)s라운드",
    "%(stage)s, round %(k)s":
        "%(stage)s, %(k)s라운드",
    "Champion: %(player)s":
        "우승: %(player)s",
    "Every round of the format is played; the places below are final.":
        "형식의 모든 라운드가 끝났습니다. 아래 순위가 최종 순위입니다.",
    "The last round is seated":
        "마지막 라운드의 테이블이 배정되었습니다",
    "The champion is known when its games are over.":
        "그 게임이 끝나면 우승자가 정해집니다.",
    "stage reached":
        "도달한 단계",
    "every round of the format {format} is seated: the tournament is over":
        "형식 {format}의 모든 라운드가 배정되었습니다: 대회가 끝났습니다",
    "the next round cannot be of the stage {stage} (it may be of {stages})":
        "다음 라운드는 단계 {stage}일 수 없습니다 (가능한 단계: {stages})",
    "the stage {stage} has {n} players: a round needs at least 2":
        "단계 {stage}의 플레이어는 {n}명입니다: 라운드에는 2명 이상이 필요합니다",
    "third failed roll: waiting for {player} to pay the fine and move, or skip a turn":
        "세 번째 굴림 실패: {player}이(가) 보석금을 내고 이동할지, 한 턴 쉴지 기다리는 중",
    "Third failed roll: instead of paying the %(fine)s fine and moving, %(player)s may skip this turn, staying on the jail square, out of jail.":
        "세 번째 굴림 실패: %(player)s은(는) 보석금 %(fine)s을(를) 내고 이동하는 대신 이번 턴을 쉬고 감옥 칸에 (감옥 밖으로) 머무를 수 있습니다.",
    "Skipping a turn instead of the jail fine":
        "보석금 대신 한 턴 쉬기",
    "Skip this turn instead of the fine (out of jail next turn)":
        "보석금 대신 이번 턴 쉬기 (다음 턴에 감옥에서 나감)",
    "Skip a turn instead: stay on the jail square, out of jail":
        "대신 한 턴 쉬기: 감옥 칸에 머물고 감옥에서 나감",
    "%(player)s skips this turn instead of the fine and is out of jail":
        "%(player)s은(는) 보석금 대신 이번 턴을 쉬고 감옥에서 나옵니다",
    "skips a turn instead of the jail fine":
        "보석금 대신 한 턴 쉼",
    "skipping a turn instead of the jail fine":
        "보석금 대신 한 턴 쉬기",
    "skipping a turn instead of the fine is not a rule of this game":
        "보석금 대신 한 턴 쉬기는 이 게임의 규칙이 아닙니다",
    "Rules of %(ruleset)s you may switch on or off for this game":
        "이 게임에서 켜고 끌 수 있는 %(ruleset)s의 규칙",
    "Variant “%(name)s”: switched on for this game. The rule played:":
        "변형 규칙 “%(name)s”: 이 게임에서는 켜짐. 적용되는 규칙:",
    "Variant “%(name)s”: not played (the new-game screen can switch it on).":
        "변형 규칙 “%(name)s”: 적용하지 않음 (새 게임 화면에서 켤 수 있습니다).",
    "Variants switched on: %(rules)s":
        "켜진 변형 규칙: %(rules)s",
    'Trades by a player in jail':
        '감옥에 있는 플레이어의 거래',
    '{player} is in jail and may not buy or sell properties':
        '{player}은(는) 감옥에 있어 땅을 사고팔 수 없습니다',
    '%(player)s has no money left and is out of the game; the deeds go back to the bank':
        '%(player)s은(는) 돈이 없어 게임에서 탈락합니다. 증서는 은행으로 돌아갑니다',
    '%(player)s sits out a turn in jail (%(n)s of %(max)s)':
        '%(player)s은(는) 감옥에서 턴을 쉽니다 (%(max)s번 중 %(n)s번째)',
    '%(player)s has sat out the last turn in jail and rolls from the jail square next time':
        '%(player)s은(는) 감옥에서 마지막 턴을 쉬었고, 다음 턴에 감옥 칸에서 움직입니다',
    '%(player)s owns every street of this colour: a house costs half, %(price)s.':
        '%(player)s은(는) 이 색의 땅을 모두 가지고 있습니다: 주택은 절반 가격인 %(price)s입니다.',
    "On a street of one's own: one house at its price, or the street sold back to the bank.":
        '자신의 땅에서는: 주택 1채를 그 가격에 짓거나, 땅을 은행에 되팝니다.',
    'A payment the cash does not cover takes all of it, and a player with no money left is out.':
        '현금으로 다 낼 수 없는 지불은 현금을 모두 가져가고, 돈이 없는 플레이어는 탈락합니다.',
    'In jail a player sits out %(n)s turns, then moves on from the jail square.':
        '감옥에서는 %(n)s번 턴을 쉬고, 그다음 감옥 칸에서 움직입니다.',
    'The bank has no money left: it paid what it had, and the game ends after this round.':
        '은행에 돈이 없습니다: 있던 만큼만 지불했고, 게임은 이번 바퀴가 끝나면 종료됩니다.',
    '%(player)s declines %(square)s: it stays with the bank':
        '%(player)s은(는) %(square)s을(를) 사지 않습니다: 은행에 남습니다',
    'Decline: it stays with the bank':
        '사지 않음: 은행에 남음',
    'in jail (%(n)s of %(max)s turns sat out)':
        '감옥 (%(max)s번 중 %(n)s번 쉼)',
    '(all of it)':
        '(전액)',
    'Free Parking pays out the whole pot.':
        '무료주차장에서는 적립금 전액을 받습니다.',
    'to pay the fine':
        '벌금 내기',
    'to draw a card from the other deck':
        '다른 더미에서 카드 뽑기',
    'Call time: the game ends now and is ranked by assets; an auction or building in progress is void. This cannot be taken back except by voiding it.':
        '종료를 선언합니다: 게임은 지금 끝나고 자산으로 순위를 정합니다. 진행 중인 경매나 건설은 무효입니다. 되돌리려면 기록을 취소해야 합니다.',
    'Call time: negotiations, auctions and building in progress stop; play goes on until every player has had as many turns, then the game is ranked. This cannot be taken back except by voiding it.':
        '종료를 선언합니다: 진행 중인 협상·경매·건설은 멈추고, 모든 플레이어의 턴 수가 같아질 때까지 계속한 뒤 순위를 정합니다. 되돌리려면 기록을 취소해야 합니다.',
    '— the game then ends at once and is ranked.':
        '— 게임은 즉시 끝나고 순위를 정합니다.',
    '— then play goes on until every player has had as many turns, and the game is ranked.':
        '— 그다음 모든 플레이어의 턴 수가 같아질 때까지 계속하고 순위를 정합니다.',
    'pot: %(amount)s':
        '적립: %(amount)s',
    'The bank holds %(amount)s.':
        '은행 잔액: %(amount)s',
    'House rules switched off: %(rules)s':
        '사용하지 않는 하우스 룰: %(rules)s',
    'Free Parking pot: %(amount)s':
        '무료주차장 적립금: %(amount)s',
    'How a player leaves jail':
        '감옥에서 나오는 방법',
    'for the deed sold back':
        '(되판 증서 대금)',
    'builds one house on landing':
        '도착해서 주택 1채 건설',
    'sells the deed back to the bank':
        '증서를 은행에 되팔기',
    'leaves the deed as it is':
        '증서를 그대로 둠',
    'A payment the cash does not cover':
        '현금으로 낼 수 없는 지불',
    "The bank's money":
        '은행의 돈',
    "Landing on one's own deed":
        '자신의 땅에 도착했을 때',
    'never':
        '불가',
    'by doubles, the fine or a card':
        '더블, 보석금 또는 카드로',
    'after turns sat out':
        '턴을 쉰 뒤',
    'a debt: raise it or go bankrupt':
        '부채: 돈을 마련하거나 파산',
    'all the cash is paid, and the player is out':
        '현금을 모두 내고 그 플레이어는 탈락',
    'build one house, or sell it back to the bank':
        '주택 1채를 짓거나 은행에 되팔기',
    'no limit':
        '제한 없음',
    '(the bank ran out of money)':
        '(은행의 돈이 바닥나 종료)',
    'buildings go back to the bank only with their street, sold on landing there':
        '건물은 그 땅에 도착해 땅과 함께 팔 때만 은행에 돌려줄 수 있습니다',
    'these rules have no mortgages':
        '이 규칙에는 저당이 없습니다',
    '{square} takes no more buildings':
        '{square}에는 더 지을 수 없습니다',
    '{player} has {cash}; a house on {square} costs {price}':
        '{player}의 현금은 {cash}입니다. {square}의 주택은 {price}입니다',
    'the bank has no building left for {square}':
        '은행에 {square}에 지을 건물이 남아 있지 않습니다',
    'a house built on landing':
        '도착해서 짓는 주택',
    'a deed sold back to the bank':
        '은행에 되판 증서',
    "leaving one's own deed as it is":
        '자신의 땅을 그대로 두기',
    '{player} is on {square}, their own: build, sell it back, or leave it':
        '{player}이(가) 자신의 {square}에 있습니다: 짓기, 되팔기 또는 그대로 두기',
    "a house is built on a street of one's own when landing there, one at a time":
        '주택은 자신의 땅에 도착했을 때 한 채씩 짓습니다',
    'these rules have no trades between players':
        '이 규칙에는 플레이어 간 거래가 없습니다',
    'Build for %(price)s: %(square)s then has %(what)s':
        '%(price)s에 짓기: %(square)s은(는) %(what)s이(가) 됨',
    'Sell %(square)s to the bank for %(price)s':
        '%(square)s을(를) %(price)s에 은행에 팔기',
    'Leave it as it is':
        '그대로 두기',
    'back: rent not claimed in time':
        '(기한 내에 요구하지 않은 임대료 반환)',
    'rent not claimed in time by its owner, paid by':
        '주인이 기한 내에 요구하지 않은 임대료, 낸 사람:',
    'Turns an owner has to claim rent':
        '임대료를 요구할 수 있는 기한 (턴)',
    'no limit: a claim traced back is paid':
        '기한 없음: 거슬러 확인되는 요구는 지불됨',
    'until the turn of the player %(n)s after the payer begins':
        '낸 사람의 %(n)s번째 다음 플레이어의 턴이 시작될 때까지',
    'a rent not claimed in time':
        '기한 내에 요구하지 않은 임대료',
    'the rent {player} paid on {square} stands: a claim that can be traced back is paid':
        '{player}이(가) {square}에서 낸 임대료는 유효합니다: 거슬러 확인되는 요구는 지불됩니다',
    "no rent {player} paid on {square} lapses now: an owner's claim lapses when the turn of the player {n} after the payer begins, and is recorded then":
        '{player}이(가) {square}에서 낸 임대료 중 지금 요구 기한이 끝나는 것은 없습니다: 주인의 요구 기한은 낸 사람의 {n}번째 다음 플레이어의 턴이 시작될 때 끝나며, 그때 기록합니다',
    'Rent not claimed: %(amount)s on %(square)s':
        '임대료 요구 없음: %(square)s의 %(amount)s',
    '%(owner)s did not ask %(player)s for the %(amount)s rent on %(square)s before this turn began: the claim has lapsed and the rent goes back.':
        '%(owner)s은(는) 이 턴이 시작되기 전까지 %(player)s에게 %(square)s의 임대료 %(amount)s를 요구하지 않았습니다: 요구 기한이 지나 임대료는 돌려줍니다.',
    'Yes: %(amount)s back to %(player)s':
        '예: %(amount)s를 %(player)s에게 돌려줌',
    '{player} won a {kind} and must place it: this sale leaves no lot where it could go':
        '{player}은(는) {kind}을(를) 낙찰받아 지어야 합니다: 이 매각으로는 지을 수 있는 땅이 남지 않습니다',
    'chooses':
        '선택',
    '{player} chooses to pay or to draw, not {choice}':
        '{player}은(는) 지불 또는 카드 뽑기를 선택합니다. {choice}은(는) 선택할 수 없습니다',
    '{field} must be pay or draw, got {value}':
        '{field}은(는) pay 또는 draw여야 합니다 (입력: {value})',
    'the choice of a fine or a card':
        '벌금 또는 카드 선택',
    'waiting for {player} to pay {amount} or draw a {deck} card':
        '{player}이(가) {amount}를 내거나 {deck} 카드를 뽑기를 기다리는 중',
    'Draw a %(deck)s card':
        '%(deck)s 카드 뽑기',
    'Bankruptcies that end the game':
        '게임이 끝나는 파산 수',
    'Buildings of the bankrupt player whose bankruptcy ends the game':
        '게임을 끝내는 파산자의 건물',
    'half of four house prices':
        '주택 4채 가격의 절반',
    'the game ends at once':
        '즉시 게임 종료',
    'sold back to the bank at half price':
        '반액으로 은행에 매각',
    'passed whole to the creditor':
        '그대로 채권자에게',
    'none: play goes on until one player is left':
        '없음: 한 명이 남을 때까지 계속',
    '(ended at bankruptcy number %(n)s)':
        '(%(n)s번째 파산으로 종료)',
    'House rules':
        '하우스 룰',
    'salary for landing on GO':
        '시작 칸에 정확히 멈춘 월급',
    'no rent: %(owner)s, who owns %(square)s, is in jail':
        '임대료 없음: %(square)s의 주인 %(owner)s이(가) 감옥에 있음',
    '%(player)s %(squares)s':
        '%(player)s: %(squares)s',
    "%(player)s's deeds are shared out, each in turn to whoever has received least and none completing a group: %(shares)s":
        '%(player)s의 증서를 분배합니다 (한 장씩, 지금까지 가장 적게 받은 사람에게, 독점이 되지 않게): %(shares)s',
    'a second':
        '두 번째',
    'a third':
        '세 번째',
    'a fourth':
        '네 번째',
    'a fifth':
        '다섯 번째',
    'a sixth':
        '여섯 번째',
    'a seventh':
        '일곱 번째',
    'an eighth':
        '여덟 번째',
    'a ninth':
        '아홉 번째',
    'a tenth':
        '열 번째',
    'No rent is collected by an owner who is in jail.':
        '감옥에 있는 주인은 임대료를 받지 못합니다.',
    'The creditor takes the cash; the deeds are shared among the players left.':
        '현금은 채권자가 받고, 증서는 남은 플레이어들이 나눠 갖습니다.',
    'Landing exactly on GO pays %(amount)s.':
        '시작 칸에 정확히 멈추면 %(amount)s를 받습니다.',
    'The %(amount)s goes into the Free Parking pot (%(pot)s now).':
        '%(amount)s는 무료주차장에 적립됩니다 (현재 %(pot)s).',
    'Payments that go into the Free Parking pot':
        '무료주차장에 적립되는 지불',
    'More salary for landing exactly on GO':
        '시작 칸에 정확히 멈추면 월급 추가 (저스트 고)',
    "A bankrupt's deeds, when the creditor is a player":
        '채권자가 플레이어일 때 파산자의 증서',
    'a pot collects there for the player who lands':
        '돈이 쌓이고, 도착한 플레이어가 받음',
    'taxes':
        '세금',
    'jail fines':
        '보석금',
    'payments by card':
        '카드에 의한 지불',
    'all to the creditor':
        '모두 채권자에게',
    'cash and cards to the creditor, the deeds shared evenly among the players left':
        '현금과 카드는 채권자에게, 증서는 남은 플레이어들에게 골고루 분배',
    'in the turn of one of the two players':
        '거래하는 두 플레이어 중 한 명의 턴에',
    "a trade is made in the turn of one of its players, and it is {player}'s turn":
        '거래는 당사자 중 한 명의 턴에서만 할 수 있습니다. 지금은 {player}의 턴입니다',
    'there is no ruleset %(id)s':
        '규칙 %(id)s이(가) 없습니다',
    'House rules of %(ruleset)s (each can be switched off for this game)':
        '%(ruleset)s의 하우스 룰 (이 게임에서 하나씩 끌 수 있음)',
    'rule':
        '규칙',
    'House rule “%(name)s”: switched off for this game. The rule played:':
        '하우스 룰 “%(name)s”: 이 게임에서는 사용하지 않음. 적용되는 규칙:',
    'House rule “%(name)s”: played.':
        '하우스 룰 “%(name)s”: 사용함.',
    "Show": "보기",
    "Nothing of this kind can be recorded now.": "지금은 이런 기록을 할 수 없습니다.",
    "No sale of buildings the rules allow now.": "지금 규칙상 가능한 건물 매각이 없습니다.",
    "the table screen has no panel %(name)s": "심판 화면에 %(name)s 패널이 없습니다",
}
NEW_DE: dict = {
    "alternates: %(n)s":
        "Ersatzspieler: %(n)s",
    "board %(n)s":
        "Tisch %(n)s",
    "round {round}, table {table}: result corrected ({reason}); the standings follow it, but round {later} was seated from the standings before this correction and stays as seated":
        "Runde {round}, Tisch {table}: Ergebnis berichtigt ({reason}); die Rangliste folgt ihm, aber Runde {later} wurde vor dieser Berichtigung nach der Rangliste gesetzt und bleibt, wie sie gesetzt ist",
    "Games in grey are not counted in the total (best games only, or a stage before the one that ranks the player).":
        "Grau gezeigte Spiele zählen nicht zur Summe (nur die besten Spiele, oder eine Stufe vor der, die den Spieler wertet).",
    "the format {format} needs at least {n} players (a stage takes the best {n}); {count} are entered":
        "das Format {format} braucht mindestens {n} Spieler (eine Stufe nimmt die besten {n}); gemeldet sind {count}",
    "each division needs at least 2 players: {divisions} has fewer":
        "jede Abteilung braucht mindestens 2 Spieler: {divisions} hat weniger",
    "alternates step in in their order: {first} comes before {name}":
        "Ersatzspieler rücken in ihrer Reihenfolge nach: {first} kommt vor {name}",
    "a player needs a name: {line}":
        "ein Spieler braucht einen Namen: {line}",
    "after the name and the division only \"invited\" may follow: {line}":
        "nach Name und Abteilung darf nur „invited“ (eingeladen) folgen: {line}",
    "the standings cannot be worked out: {problem}":
        "die Rangliste lässt sich nicht berechnen: {problem}",
    "{n} players cannot be seated at tables the scoring scores (of {sizes} players): check a player in, enter one late or let one drop, then seat the round":
        "{n} Spieler lassen sich nicht an Tische setzen, die die Wertung kennt (mit {sizes} Spielern): einen Spieler einchecken, nachmelden oder zurückziehen lassen, dann die Runde setzen",
    "no one to seat for {stage}: check the players in (Players between rounds) first":
        "niemand für {stage} zu setzen: zuerst die Spieler einchecken (Spieler zwischen den Runden)",
    "not counted in the total (best games only, or a stage before the one that ranks the player)":
        "nicht in der Summe (nur die besten Spiele, oder eine Stufe vor der, die den Spieler wertet)",
    "Round %(n)s is being played: the next round is seated when every game of it is over.":
        "Runde %(n)s wird gespielt: die nächste Runde wird gesetzt, wenn alle ihre Spiele beendet sind.",
    "Going on to %(stage)s: %(players)s":
        "Weiter in %(stage)s: %(players)s",
    "Equal at the cut with %(last)s after every tie-break: %(players)s. The order of the standings decided; a result corrected or a player dropped changes it before the round is seated.":
        "Nach allen Entscheidungskriterien gleichauf mit %(last)s an der Grenze: %(players)s. Die Reihenfolge der Rangliste hat entschieden; ein berichtigtes Ergebnis oder ein Rückzug ändert sie, bevor die Runde gesetzt ist.",
    "{name} can take the place of a player still in, as a late entry":
        "{name} kann als Nachmeldung nur den Platz eines Spielers einnehmen, der noch dabei ist",
    "{name} takes the place of {player} from round {round}; {player} has dropped":
        "{name} nimmt ab Runde {round} den Platz von {player} ein; {player} hat sich zurückgezogen",
    "in place of":
        "an Stelle von",
    "no one (a new place)":
        "niemand (ein neuer Platz)",
    "(with divisions: Name | Division; a seed invited to a later stage: Name | Division | invited)":
        "(mit Abteilungen: Name | Abteilung; ein zu einer späteren Stufe eingeladener Spieler: Name | Abteilung | invited)",
    "the format {format} has no stage that takes invited seeds":
        "das Format {format} hat keine Stufe, in die eingeladene Spieler kommen",
    "no division {division} in this tournament (it has {divisions})":
        "keine Abteilung {division} in diesem Turnier (es hat {divisions})",
    "with the seeds invited to it (a previous champion), who take places among them":
        "mit den dazu eingeladenen Spielern (etwa dem Vorjahressieger), die Plätze darunter einnehmen",
    "Division %(division)s":
        "Abteilung %(division)s",
    "Champion of %(division)s: %(player)s":
        "Sieger %(division)s: %(player)s",
    "invited to the %(stage)s":
        "eingeladen: %(stage)s",
    "Division":
        "Abteilung",
    "minutes by round: %(minutes)s (the last for every later round)":
        "Minuten je Runde: %(minutes)s (die letzte Angabe für alle späteren Runden)",
    "Alternates, in order, one per line":
        "Ersatzspieler, der Reihe nach, einer pro Zeile",
    "no player {name} in this tournament":
        "kein Spieler „{name}“ in diesem Turnier",
    "round {round} has been seated since this screen was drawn: nothing was changed":
        "Runde {round} wurde seit dem Aufruf dieser Ansicht eingeteilt: nichts wurde geändert",
    "{name} is not on the list of players to seat: check-in is for them only":
        "{name} steht nicht auf der Liste der einzuteilenden Spieler: nur diese checken ein",
    "{name} is checked in: seated from round {round}":
        "{name} ist eingecheckt: ab Runde {round} eingeteilt",
    "{name} is not checked in: not seated until checked in":
        "{name} ist nicht eingecheckt: erst nach dem Einchecken eingeteilt",
    "{name} has already dropped":
        "{name} hat sich bereits zurückgezogen",
    "{name} is an alternate: taken off the list by dropping is not needed; they are never seated unless they step in":
        "{name} ist Ersatzspieler: ein Rückzug ist nicht nötig; Ersatzspieler werden nur eingeteilt, wenn sie nachrücken",
    "{name} has dropped: not seated from round {round} (their results stand)":
        "{name} hat sich zurückgezogen: ab Runde {round} nicht mehr eingeteilt (bisherige Ergebnisse bleiben bestehen)",
    "no alternate is waiting to step in for {name}":
        "kein Ersatzspieler wartet darauf, für {name} nachzurücken",
    "{name} has dropped; {alternate} steps in for them from round {round}":
        "{name} hat sich zurückgezogen; {alternate} rückt ab Runde {round} nach",
    "{name} has not dropped":
        "{name} hat sich nicht zurückgezogen",
    "{name} dropped before a round that has been seated since: they may enter again as a late entry only":
        "{name} hat sich vor einer inzwischen eingeteilten Runde zurückgezogen: erneute Teilnahme nur per Nachmeldung",
    "{name} is back: seated from round {round}":
        "{name} ist zurück: ab Runde {round} eingeteilt",
    "{name} is not an alternate waiting to step in":
        "{name} ist kein wartender Ersatzspieler",
    "{name} steps in: seated from round {round}":
        "{name} rückt nach: ab Runde {round} eingeteilt",
    "unknown change to a player: {action}":
        "unbekannte Änderung an einem Spieler: {action}",
    "a player needs a name":
        "ein Spieler braucht einen Namen",
    "{name} is already in this tournament":
        "{name} ist bereits in diesem Turnier",
    "{name} is alternate {n}":
        "{name} ist Ersatzspieler Nr. {n}",
    "{name} enters late: seated from round {round}":
        "{name} steigt per Nachmeldung ein: ab Runde {round} eingeteilt",
    "the form names no round: nothing was changed":
        "im Formular fehlt die Runde: nichts wurde geändert",
    "Players between rounds":
        "Spieler zwischen den Runden",
    "%(n)s to seat":
        "%(n)s einzuteilen",
    "%(n)s not checked in":
        "%(n)s nicht eingecheckt",
    "%(n)s alternates":
        "%(n)s Ersatzspieler",
    "%(n)s dropped":
        "%(n)s zurückgezogen",
    "Changes here take effect from round %(n)s: a game in progress is always finished.":
        "Änderungen hier gelten ab Runde %(n)s: ein laufendes Spiel wird immer zu Ende gespielt.",
    "alternate %(n)s":
        "Ersatzspieler Nr. %(n)s",
    "dropped after round %(n)s":
        "Rückzug nach Runde %(n)s",
    "dropped before round 1":
        "Rückzug vor Runde 1",
    "not checked in":
        "nicht eingecheckt",
    "stepped in for %(player)s from round %(n)s":
        "ab Runde %(n)s für %(player)s nachgerückt",
    "from round %(n)s":
        "ab Runde %(n)s",
    "Check in":
        "Einchecken",
    "Not here":
        "Nicht da",
    "Drop":
        "Rückzug",
    "Drop: %(alternate)s steps in":
        "Rückzug: %(alternate)s rückt nach",
    "Step in":
        "Nachrücken",
    "Undo the drop":
        "Rückzug aufheben",
    "Late entry (from round %(n)s)":
        "Nachmeldung (ab Runde %(n)s)",
    "Add as an alternate":
        "Als Ersatzspieler hinzufügen",
    "players check in at the venue: only those checked in are seated":
        "Spieler checken vor Ort ein: nur Eingecheckte werden eingeteilt",
    "Minutes per round (e.g. 70 60 60; empty: the format's own, if it has one)":
        "Minuten pro Runde (z. B. 70 60 60; leer: Vorgabe des Formats, falls vorhanden)",
    "game {game} is not a table of this tournament":
        "Spiel {game} ist kein Tisch dieses Turniers",
    "this table's result was corrected since this screen was drawn: nothing was changed":
        "das Ergebnis dieses Tisches wurde seit dem Anzeigen dieser Seite berichtigt: nichts wurde geändert",
    "table {table} is still playing: a result is corrected after its game":
        "Tisch {table} spielt noch: ein Ergebnis wird nach dem Spiel berichtigt",
    "a correction gives a place and assets for each player of the table, and no one else":
        "eine Berichtigung nennt Platz und Vermögen jedes Spielers des Tisches und von niemand sonst",
    "{name}'s place must be from 1 to {n}":
        "der Platz von {name} muss von 1 bis {n} sein",
    "{name}'s assets must be a whole amount from 0 to {max}":
        "das Vermögen von {name} muss ein ganzer Betrag von 0 bis {max} sein",
    "the places do not make a ranking: {name} is {place}, with {ahead} ahead":
        "die Plätze ergeben keine Rangfolge: {name} ist auf Platz {place}, mit {ahead} davor",
    "a correction needs its reason, for the record":
        "eine Berichtigung braucht ihren Grund, für das Protokoll",
    "a monopoly win has one winner":
        "ein Monopoly-Sieg hat einen Sieger",
    "round {round}, table {table}: result corrected ({reason}); the standings follow it":
        "Runde {round}, Tisch {table}: Ergebnis berichtigt ({reason}); die Rangliste folgt ihm",
    "Corrections by the director":
        "Berichtigungen der Turnierleitung",
    "Round %(r)s, table %(t)s":
        "Runde %(r)s, Tisch %(t)s",
    "every game of this round is over":
        "alle Spiele dieser Runde sind beendet",
    "the round's clock has not started":
        "die Uhr der Runde läuft noch nicht",
    "The first round is not seated yet":
        "Die erste Runde ist noch nicht gesetzt",
    "correct":
        "berichtigen",
    "Result corrected: %(reason)s":
        "Ergebnis berichtigt: %(reason)s",
    "Correct a result":
        "Ergebnis berichtigen",
    "Back to the director's page":
        "Zurück zur Seite der Turnierleitung",
    "the game's own result":
        "das eigene Ergebnis des Spiels",
    "This table is still playing: a result is corrected after its game.":
        "Dieser Tisch spielt noch: ein Ergebnis wird nach dem Spiel berichtigt.",
    "The game's record is not changed: the correction is kept beside it, with its reason, and the standings follow the last correction.":
        "Das Spielprotokoll bleibt unverändert: die Berichtigung wird mit ihrem Grund daneben aufbewahrt, und die Rangliste folgt der letzten Berichtigung.",
    "place":
        "Platz",
    "a monopoly win (every other player bankrupt)":
        "ein Monopoly-Sieg (alle anderen Spieler bankrott)",
    "Reason (kept and shown with the standings)":
        "Grund (aufbewahrt und mit der Rangliste gezeigt)",
    "Correct the result":
        "Ergebnis berichtigen",
    "Corrections of this table":
        "Berichtigungen dieses Tisches",
    "room display":
        "Saalanzeige",
    "after time is called, play on until every player has had as many turns (the round ends when the first player's turn comes round again)":
        "nach dem Schlusssignal weiterspielen, bis alle gleich viele Züge hatten (die Runde endet, wenn der erste Spieler wieder an der Reihe wäre)",
    "CSV":
        "CSV",
    "Format":
        "Format",
    "%(n)s rounds":
        "%(n)s Runden",
    "1 round":
        "1 Runde",
    "as many rounds as the director seats":
        "so viele Runden, wie die Turnierleitung ansetzt",
    "every player still in":
        "alle verbliebenen Spieler",
    "the best %(n)s of the stage before":
        "die besten %(n)s der vorigen Stufe",
    "the winner of each table of the stage before":
        "der Sieger jedes Tisches der vorigen Stufe",
    "tables drawn for the fewest repeat opponents (of 4, of 5 where the numbers do not divide)":
        "Tische ausgelost mit möglichst wenigen wiederholten Gegnern (zu viert, zu fünft, wo es nicht aufgeht)",
    "tables seeded snake-wise from the standings":
        "Tische nach der Rangliste in Schlangenlinie gesetzt",
    "ranked boards: the best on board 1, the next on board 2…":
        "Ranglistentische: die Besten an Tisch 1, die Nächsten an Tisch 2 …",
    "ranked by this stage's games alone":
        "gewertet nur nach den Spielen dieser Stufe",
    "ranked by every game so far":
        "gewertet nach allen bisherigen Spielen",
    "places go board by board: the champion comes from board 1":
        "Platzierung Tisch für Tisch: der Sieger kommt von Tisch 1",
    "%(n)s minutes a round":
        "%(n)s Minuten je Runde",
    "%(stage)s: %(how)s":
        "%(stage)s: %(how)s",
    "The format's stages":
        "Die Stufen des Formats",
    "%(stage)s, round %(k)s of %(n)s":
        "%(stage)s, Runde %(k)s von %(n)s",
    "%(stage)s, round %(k)s":
        "%(stage)s, Runde %(k)s",
    "Champion: %(player)s":
        "Sieger: %(player)s",
    "Every round of the format is played; the places below are final.":
        "Alle Runden des Formats sind gespielt; die Plätze unten sind endgültig.",
    "The last round is seated":
        "Die letzte Runde ist gesetzt",
    "The champion is known when its games are over.":
        "Der Sieger steht fest, wenn ihre Spiele beendet sind.",
    "stage reached":
        "erreichte Stufe",
    "every round of the format {format} is seated: the tournament is over":
        "alle Runden des Formats {format} sind gesetzt: das Turnier ist zu Ende",
    "the next round cannot be of the stage {stage} (it may be of {stages})":
        "die nächste Runde kann nicht zur Stufe {stage} gehören (möglich: {stages})",
    "the stage {stage} has {n} players: a round needs at least 2":
        "die Stufe {stage} hat {n} Spieler: eine Runde braucht mindestens 2",
    "third failed roll: waiting for {player} to pay the fine and move, or skip a turn":
        "dritter erfolgloser Wurf: wartet darauf, dass {player} die Kaution zahlt und zieht oder aussetzt",
    "Third failed roll: instead of paying the %(fine)s fine and moving, %(player)s may skip this turn, staying on the jail square, out of jail.":
        "Dritter erfolgloser Wurf: Statt die Kaution von %(fine)s zu zahlen und zu ziehen, darf %(player)s diese Runde aussetzen und bleibt (frei) auf dem Gefängnisfeld.",
    "Skipping a turn instead of the jail fine":
        "Aussetzen statt der Kaution",
    "Skip this turn instead of the fine (out of jail next turn)":
        "Diese Runde aussetzen statt der Kaution (beim nächsten Zug frei)",
    "Skip a turn instead: stay on the jail square, out of jail":
        "Stattdessen aussetzen: auf dem Gefängnisfeld bleiben, frei",
    "%(player)s skips this turn instead of the fine and is out of jail":
        "%(player)s setzt statt der Kaution diese Runde aus und ist frei",
    "skips a turn instead of the jail fine":
        "setzt statt der Kaution aus",
    "skipping a turn instead of the jail fine":
        "das Aussetzen statt der Kaution",
    "skipping a turn instead of the fine is not a rule of this game":
        "Aussetzen statt der Kaution ist in diesem Spiel keine Regel",
    "Rules of %(ruleset)s you may switch on or off for this game":
        "Regeln von %(ruleset)s, die für dieses Spiel ein- oder ausgeschaltet werden können",
    "Variant “%(name)s”: switched on for this game. The rule played:":
        "Variante „%(name)s“: für dieses Spiel eingeschaltet. Es gilt:",
    "Variant “%(name)s”: not played (the new-game screen can switch it on).":
        "Variante „%(name)s“: nicht gespielt (der Bildschirm für ein neues Spiel kann sie einschalten).",
    "Variants switched on: %(rules)s":
        "Eingeschaltete Varianten: %(rules)s",
    'Trades by a player in jail':
        'Handel eines Spielers im Gefängnis',
    '{player} is in jail and may not buy or sell properties':
        '{player} ist im Gefängnis und darf keine Grundstücke kaufen oder verkaufen',
    '%(player)s has no money left and is out of the game; the deeds go back to the bank':
        '%(player)s hat kein Geld mehr und scheidet aus; die Grundstücke gehen an die Bank zurück',
    '%(player)s sits out a turn in jail (%(n)s of %(max)s)':
        '%(player)s setzt im Gefängnis eine Runde aus (%(n)s von %(max)s)',
    '%(player)s has sat out the last turn in jail and rolls from the jail square next time':
        '%(player)s hat die letzte Runde im Gefängnis ausgesetzt und würfelt beim nächsten Mal vom Gefängnisfeld aus',
    '%(player)s owns every street of this colour: a house costs half, %(price)s.':
        '%(player)s besitzt alle Straßen dieser Farbe: ein Haus kostet die Hälfte, %(price)s.',
    "On a street of one's own: one house at its price, or the street sold back to the bank.":
        'Auf der eigenen Straße: ein Haus zu seinem Preis, oder die Straße an die Bank zurückverkaufen.',
    'A payment the cash does not cover takes all of it, and a player with no money left is out.':
        'Eine Zahlung, die das Bargeld nicht deckt, nimmt alles, und wer kein Geld mehr hat, scheidet aus.',
    'In jail a player sits out %(n)s turns, then moves on from the jail square.':
        'Im Gefängnis setzt man %(n)s Runden aus und zieht dann vom Gefängnisfeld weiter.',
    'The bank has no money left: it paid what it had, and the game ends after this round.':
        'Die Bank hat kein Geld mehr: sie hat gezahlt, was sie hatte, und das Spiel endet nach dieser Runde.',
    '%(player)s declines %(square)s: it stays with the bank':
        '%(player)s kauft %(square)s nicht: es bleibt bei der Bank',
    'Decline: it stays with the bank':
        'Nicht kaufen: bleibt bei der Bank',
    'in jail (%(n)s of %(max)s turns sat out)':
        'im Gefängnis (%(n)s von %(max)s Runden ausgesetzt)',
    '(all of it)':
        '(alles)',
    'Free Parking pays out the whole pot.':
        'Frei Parken zahlt die ganze Kasse aus.',
    'to pay the fine':
        'die Strafe zu zahlen',
    'to draw a card from the other deck':
        'eine Karte vom anderen Stapel zu ziehen',
    'Call time: the game ends now and is ranked by assets; an auction or building in progress is void. This cannot be taken back except by voiding it.':
        'Zeitende ausrufen: das Spiel endet jetzt und wird nach Vermögen gewertet; eine laufende Versteigerung oder ein Bau ist nichtig. Das lässt sich nur durch Stornieren zurücknehmen.',
    'Call time: negotiations, auctions and building in progress stop; play goes on until every player has had as many turns, then the game is ranked. This cannot be taken back except by voiding it.':
        'Zeitende ausrufen: laufende Verhandlungen, Versteigerungen und Bauten enden; gespielt wird, bis alle gleich viele Züge hatten, dann wird gewertet. Das lässt sich nur durch Stornieren zurücknehmen.',
    '— the game then ends at once and is ranked.':
        '— das Spiel endet dann sofort und wird gewertet.',
    '— then play goes on until every player has had as many turns, and the game is ranked.':
        '— dann wird gespielt, bis alle gleich viele Züge hatten, und gewertet.',
    'pot: %(amount)s':
        'Kasse: %(amount)s',
    'The bank holds %(amount)s.':
        'Die Bank hat %(amount)s.',
    'House rules switched off: %(rules)s':
        'Abgeschaltete Hausregeln: %(rules)s',
    'Free Parking pot: %(amount)s':
        'Frei-Parken-Kasse: %(amount)s',
    'How a player leaves jail':
        'Wie man aus dem Gefängnis kommt',
    'for the deed sold back':
        'für das zurückverkaufte Grundstück',
    'builds one house on landing':
        'baut beim Landen ein Haus',
    'sells the deed back to the bank':
        'verkauft das Grundstück an die Bank zurück',
    'leaves the deed as it is':
        'lässt das Grundstück, wie es ist',
    'A payment the cash does not cover':
        'Eine Zahlung, die das Bargeld nicht deckt',
    "The bank's money":
        'Das Geld der Bank',
    "Landing on one's own deed":
        'Landen auf dem eigenen Grundstück',
    'never':
        'nie',
    'by doubles, the fine or a card':
        'durch Pasch, Kaution oder Karte',
    'after turns sat out':
        'nach ausgesetzten Runden',
    'a debt: raise it or go bankrupt':
        'eine Schuld: aufbringen oder bankrott',
    'all the cash is paid, and the player is out':
        'das ganze Bargeld wird gezahlt, und der Spieler scheidet aus',
    'build one house, or sell it back to the bank':
        'ein Haus bauen oder an die Bank zurückverkaufen',
    'no limit':
        'unbegrenzt',
    '(the bank ran out of money)':
        '(der Bank ist das Geld ausgegangen)',
    'buildings go back to the bank only with their street, sold on landing there':
        'Gebäude gehen nur mit ihrer Straße an die Bank zurück, verkauft beim Landen dort',
    'these rules have no mortgages':
        'diese Regeln kennen keine Hypotheken',
    '{square} takes no more buildings':
        'auf {square} kann nichts mehr gebaut werden',
    '{player} has {cash}; a house on {square} costs {price}':
        '{player} hat {cash}; ein Haus auf {square} kostet {price}',
    'the bank has no building left for {square}':
        'die Bank hat kein Gebäude mehr für {square}',
    'a house built on landing':
        'ein beim Landen gebautes Haus',
    'a deed sold back to the bank':
        'ein an die Bank zurückverkauftes Grundstück',
    "leaving one's own deed as it is":
        'das eigene Grundstück so lassen',
    '{player} is on {square}, their own: build, sell it back, or leave it':
        '{player} steht auf dem eigenen Grundstück {square}: bauen, zurückverkaufen oder lassen',
    "a house is built on a street of one's own when landing there, one at a time":
        'ein Haus wird beim Landen auf der eigenen Straße gebaut, eins nach dem anderen',
    'these rules have no trades between players':
        'diese Regeln kennen keinen Handel zwischen Spielern',
    'Build for %(price)s: %(square)s then has %(what)s':
        'Bauen für %(price)s: %(square)s hat dann %(what)s',
    'Sell %(square)s to the bank for %(price)s':
        '%(square)s für %(price)s an die Bank verkaufen',
    'Leave it as it is':
        'So lassen',
    'back: rent not claimed in time':
        'zurück: Miete nicht rechtzeitig verlangt',
    'rent not claimed in time by its owner, paid by':
        'vom Besitzer nicht rechtzeitig verlangte Miete, gezahlt von',
    'Turns an owner has to claim rent':
        'Züge, in denen Miete verlangt werden kann',
    'no limit: a claim traced back is paid':
        'keine Frist: nachweisbare Forderungen werden bezahlt',
    'until the turn of the player %(n)s after the payer begins':
        'bis der Zug des %(n)s. Spielers nach dem Zahler beginnt',
    'a rent not claimed in time':
        'eine nicht rechtzeitig verlangte Miete',
    'the rent {player} paid on {square} stands: a claim that can be traced back is paid':
        'die Miete, die {player} auf {square} gezahlt hat, bleibt: eine nachweisbare Forderung wird bezahlt',
    "no rent {player} paid on {square} lapses now: an owner's claim lapses when the turn of the player {n} after the payer begins, and is recorded then":
        'keine Miete, die {player} auf {square} gezahlt hat, verfällt jetzt: der Anspruch des Besitzers verfällt, wenn der Zug des {n}. Spielers nach dem Zahler beginnt, und wird dann erfasst',
    'Rent not claimed: %(amount)s on %(square)s':
        'Miete nicht verlangt: %(amount)s auf %(square)s',
    '%(owner)s did not ask %(player)s for the %(amount)s rent on %(square)s before this turn began: the claim has lapsed and the rent goes back.':
        '%(owner)s hat von %(player)s die Miete von %(amount)s auf %(square)s nicht verlangt, bevor dieser Zug begann: der Anspruch ist verfallen, die Miete geht zurück.',
    'Yes: %(amount)s back to %(player)s':
        'Ja: %(amount)s zurück an %(player)s',
    '{player} won a {kind} and must place it: this sale leaves no lot where it could go':
        '{player} hat ein(e) {kind} ersteigert und muss es bauen: nach diesem Verkauf bleibt kein Grundstück dafür',
    'chooses':
        'wählt',
    '{player} chooses to pay or to draw, not {choice}':
        '{player} wählt zahlen oder ziehen, nicht {choice}',
    '{field} must be pay or draw, got {value}':
        '{field} muss pay oder draw sein, nicht {value}',
    'the choice of a fine or a card':
        'die Wahl zwischen Strafe und Karte',
    'waiting for {player} to pay {amount} or draw a {deck} card':
        'wartet, bis {player} {amount} zahlt oder eine {deck}-Karte zieht',
    'Draw a %(deck)s card':
        'Eine %(deck)s-Karte ziehen',
    'Bankruptcies that end the game':
        'Bankrotte, die das Spiel beenden',
    'Buildings of the bankrupt player whose bankruptcy ends the game':
        'Gebäude dessen, dessen Bankrott das Spiel beendet',
    'half of four house prices':
        'die Hälfte von vier Hauspreisen',
    'the game ends at once':
        'das Spiel endet sofort',
    'sold back to the bank at half price':
        'zum halben Preis an die Bank zurück',
    'passed whole to the creditor':
        'unverändert an den Gläubiger',
    'none: play goes on until one player is left':
        'keine: gespielt wird, bis nur noch einer übrig ist',
    '(ended at bankruptcy number %(n)s)':
        '(beendet beim %(n)s. Bankrott)',
    'House rules':
        'Hausregeln',
    'salary for landing on GO':
        'Gehalt für Landen auf Los',
    'no rent: %(owner)s, who owns %(square)s, is in jail':
        'keine Miete: %(owner)s, Besitzer von %(square)s, ist im Gefängnis',
    '%(player)s %(squares)s':
        '%(player)s: %(squares)s',
    "%(player)s's deeds are shared out, each in turn to whoever has received least and none completing a group: %(shares)s":
        'Die Grundstücke von %(player)s werden verteilt, jedes reihum an den, der bisher am wenigsten erhalten hat, und keines vervollständigt eine Gruppe: %(shares)s',
    'a second':
        'ein zweiter',
    'a third':
        'ein dritter',
    'a fourth':
        'ein vierter',
    'a fifth':
        'ein fünfter',
    'a sixth':
        'ein sechster',
    'a seventh':
        'ein siebter',
    'an eighth':
        'ein achter',
    'a ninth':
        'ein neunter',
    'a tenth':
        'ein zehnter',
    'No rent is collected by an owner who is in jail.':
        'Wer im Gefängnis sitzt, kassiert keine Miete.',
    'The creditor takes the cash; the deeds are shared among the players left.':
        'Der Gläubiger erhält das Bargeld; die Grundstücke werden unter den übrigen Spielern verteilt.',
    'Landing exactly on GO pays %(amount)s.':
        'Genau auf Los landen bringt %(amount)s.',
    'The %(amount)s goes into the Free Parking pot (%(pot)s now).':
        'Die %(amount)s gehen in die Frei-Parken-Kasse (jetzt %(pot)s).',
    'Payments that go into the Free Parking pot':
        'Zahlungen in die Frei-Parken-Kasse',
    'More salary for landing exactly on GO':
        'Mehr Gehalt, wenn man genau auf Los landet',
    "A bankrupt's deeds, when the creditor is a player":
        'Grundstücke eines Bankrotten, wenn der Gläubiger ein Spieler ist',
    'a pot collects there for the player who lands':
        'dort sammelt sich eine Kasse für den Spieler, der darauf kommt',
    'taxes':
        'Steuern',
    'jail fines':
        'Kautionen fürs Gefängnis',
    'payments by card':
        'Zahlungen per Karte',
    'all to the creditor':
        'alles an den Gläubiger',
    'cash and cards to the creditor, the deeds shared evenly among the players left':
        'Bargeld und Karten an den Gläubiger, die Grundstücke gleichmäßig unter den übrigen Spielern verteilt',
    'in the turn of one of the two players':
        'im Zug eines der beiden Spieler',
    "a trade is made in the turn of one of its players, and it is {player}'s turn":
        'Gehandelt wird nur im Zug eines der beiden Beteiligten, und {player} ist am Zug',
    'there is no ruleset %(id)s':
        'Es gibt kein Regelwerk %(id)s',
    'House rules of %(ruleset)s (each can be switched off for this game)':
        'Hausregeln von %(ruleset)s (jede lässt sich für dieses Spiel abschalten)',
    'rule':
        'Regel',
    'House rule “%(name)s”: switched off for this game. The rule played:':
        'Hausregel „%(name)s“: für dieses Spiel abgeschaltet. Gespielt wird:',
    'House rule “%(name)s”: played.':
        'Hausregel „%(name)s“: wird gespielt.',
    "Show": "Anzeigen",
    "Nothing of this kind can be recorded now.": "Nichts dieser Art kann jetzt erfasst werden.",
    "No sale of buildings the rules allow now.": "Kein Verkauf von Gebäuden, den die Regeln jetzt erlauben.",
    "the table screen has no panel %(name)s": "der Tischbildschirm hat kein Feld %(name)s",
}


def update(lang: str, pot, new: dict) -> list[str]:
    """One language's catalogue brought up to the template; the messages it still lacks."""
    po = TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"
    old = {}
    if po.exists():
        with po.open("rb") as fh:
            old = {m.id: m.string for m in read_po(fh) if m.id}
    catalog = Catalog(locale=lang, project="referee")
    missing = []
    for message in pot:
        if not message.id:
            continue
        text = old.get(message.id)
        if not text or isinstance(text, tuple) and not any(text):  # a plural message keeps a tuple of forms
            text = new.get(message.id, "")
        if not text:
            missing.append(message.id)
        catalog.add(message.id, text, locations=message.locations)
    for msgid, text in old.items():  # words translated at run time (reasons, building kinds)
        if msgid not in catalog:
            catalog.add(msgid, text)
    po.parent.mkdir(parents=True, exist_ok=True)
    with po.open("wb") as fh:
        write_po(fh, catalog, width=120)
    with po.with_suffix(".mo").open("wb") as fh:
        write_mo(fh, catalog)
    return missing


def main(pot_path: str) -> int:
    with open(pot_path, "rb") as fh:
        pot = read_po(fh)
    missing = 0
    for lang, new in (("ja", NEW), ("ko", NEW_KO), ("de", NEW_DE)):
        for msgid in update(lang, pot, new):
            print(f"missing ({lang}):", msgid)
            missing += 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
