"""unlocks kept on the server: one row per grant (the cookie holds only its token, the row only the token's hash)

Revision ID: b8f2d4a6c1e9
Revises: d5a8e3c1f2b7
Create Date: 2026-12-02 10:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'b8f2d4a6c1e9'
down_revision = 'd5a8e3c1f2b7'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'grants',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('role', sa.String(length=20), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=True),
        sa.Column('tournament_id', sa.Integer(), nullable=True),
        sa.Column('device', sa.String(length=60), server_default='', nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('expires_at', sa.DateTime(), nullable=False),
        sa.Column('revoked_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('token_hash'),
    )
    with op.batch_alter_table('grants', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_grants_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_grants_tournament_id'), ['tournament_id'], unique=False)


def downgrade():
    with op.batch_alter_table('grants', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_grants_tournament_id'))
        batch_op.drop_index(batch_op.f('ix_grants_game_id'))
    op.drop_table('grants')
