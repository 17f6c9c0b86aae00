"""a correction withdrawn by a later row: the withdrawal names the correction it withdraws and keeps no result

Revision ID: e4c7a9d2b5f1
Revises: b8f2d4a6c1e9
Create Date: 2026-12-03 10:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'e4c7a9d2b5f1'
down_revision = 'b8f2d4a6c1e9'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('result_corrections', schema=None) as batch_op:
        batch_op.add_column(sa.Column('withdraws_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key('fk_result_corrections_withdraws_id', 'result_corrections', ['withdraws_id'],
                                    ['id'])
        batch_op.alter_column('result', existing_type=sa.JSON(), nullable=True)


def downgrade():
    op.execute("DELETE FROM result_corrections WHERE withdraws_id IS NOT NULL")
    with op.batch_alter_table('result_corrections', schema=None) as batch_op:
        batch_op.alter_column('result', existing_type=sa.JSON(), nullable=False)
        batch_op.drop_constraint('fk_result_corrections_withdraws_id', type_='foreignkey')
        batch_op.drop_column('withdraws_id')
