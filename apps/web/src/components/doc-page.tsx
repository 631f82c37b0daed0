import { Anchor, Box, Container, Group, Stack, Text, Title, Typography } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import classes from './doc-page.module.css';

export interface DocSection {
  /** The anchor: `/help#pools` opens the page at this section. */
  id: string;
  title: string;
  content?: ReactNode;
  /** Headings one level down (the questions of a FAQ group), each with its own anchor. */
  subsections?: { id: string; title: string; content: ReactNode }[];
}

interface DocPageProps {
  title: string;
  intro: ReactNode;
  sections: DocSection[];
}

/** A heading with a link to itself beside it, so a section can be copied and shared. */
function AnchoredHeading({ id, title, order }: { id: string; title: string; order: 2 | 3 }) {
  return (
    <Group gap={6} wrap="nowrap" align="baseline" className={classes.heading}>
      <Title order={order} id={id} fz={order === 2 ? 'h3' : 'h4'}>
        {title}
      </Title>
      <Anchor
        component={Link}
        to={`#${id}`}
        c="dimmed"
        className={classes.self}
        aria-label={`Link to “${title}”`}
      >
        #
      </Anchor>
    </Group>
  );
}

/**
 * A page of text (help, FAQ, cookies, issue 36): every word in the page, none folded away, so the browser's
 * find sees it; a list of its sections at the top; each heading with an anchor.
 */
export function DocPage({ title, intro, sections }: DocPageProps) {
  useDocumentTitle(`${title} · Allot`);
  return (
    <Container size="md" w="100%" py="xl">
      <Stack gap="xl">
        <Stack gap="xs">
          <Title order={1} fz="h2">
            {title}
          </Title>
          <Typography className={classes.text}>{intro}</Typography>
        </Stack>
        {sections.length > 1 && (
          <Box component="nav" aria-labelledby="on-this-page" className={classes.toc}>
            <Text id="on-this-page" fw={600} size="sm" mb="xs">
              On this page
            </Text>
            <ul className={classes.tocList}>
              {sections.map((section) => (
                <li key={section.id}>
                  <Anchor component={Link} to={`#${section.id}`} size="sm">
                    {section.title}
                  </Anchor>
                  {section.subsections && (
                    <ul className={classes.tocList}>
                      {section.subsections.map((sub) => (
                        <li key={sub.id}>
                          <Anchor component={Link} to={`#${sub.id}`} size="sm">
                            {sub.title}
                          </Anchor>
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          </Box>
        )}
        {sections.map((section) => (
          <Stack key={section.id} component="section" aria-labelledby={section.id} gap="sm">
            <AnchoredHeading id={section.id} title={section.title} order={2} />
            {section.content && <Typography className={classes.text}>{section.content}</Typography>}
            {section.subsections?.map((sub) => (
              <Stack key={sub.id} gap={4} mt="xs">
                <AnchoredHeading id={sub.id} title={sub.title} order={3} />
                <Typography className={classes.text}>{sub.content}</Typography>
              </Stack>
            ))}
          </Stack>
        ))}
      </Stack>
    </Container>
  );
}
